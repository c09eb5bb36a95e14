// Words the server sends as data, in the reader's language (docs/I18N.md): a frame that
// reaches a whole group carries "3 days" or "3d", and each page says it its own way.

/** "5+3" stays as it is; "1d", "3 days" and "untimed" become the page's language. */
export function timeControlText(value) {
  const days = /^(\d+)(?:d| days?)$/.exec(value ?? "");
  if (days) {
    const count = Number(days[1]);
    return interpolate(ngettext("%(count)s day", "%(count)s days", count), { count }, true);
  }
  if (value === "untimed") return gettext("untimed");
  return value ?? "";
}
