// The create-a-tournament form: show only the chosen format's own fields and hold
// "Players per game" and "Most players" to what that format allows. The server
// checks everything again; this only keeps people from filling in what does not apply.
// On it and on the edit form, it also lets people give the start in their own zone:
// the server writes it in UTC (the label says so), this shows it in the viewer's zone
// (the one chosen in their settings, else the browser's),
// names the zone in the label, and sends the zone's offset at that date (summer time
// included) beside it.
/* global gettext, interpolate */
import { offsetAt, wallValue, zoneName } from "./local_time.js";

function startInLocalTime(form) {
  const start = form.elements.starts_at;
  const offset = form.elements.starts_at_offset;
  if (!start || !offset) return;
  // Empty offset: the value is the server's UTC one; a posted form keeps what was typed.
  if (offset.value === "" && start.value) {
    const utc = new Date(`${start.value}Z`);
    if (!Number.isNaN(utc.getTime())) start.value = wallValue(utc);
  }
  const label = form.querySelector(`label[for="${start.id}"]`);
  if (label) {
    const suffix = label.textContent.trim().endsWith(":") ? ":" : "";  // Django's label suffix
    label.textContent = interpolate(gettext("Starts at (your time, %s)"), [zoneName()]) + suffix;
  }
  form.addEventListener("submit", () => {
    const minutes = start.value ? offsetAt(start.value) : null;
    offset.value = minutes === null ? "" : String(minutes);
  });
}

const form = document.querySelector("form[data-tournament-form]");
// The edit form has no format to choose (the event's own is fixed).
if (form?.elements.format) {
  const format = form.elements.format;
  const pairs = (text) => Object.fromEntries(
    (text || "").split(" ").filter(Boolean).map((pair) => pair.split(":")),
  );
  const update = () => {
    const chosen = format.value;
    for (const input of form.querySelectorAll("[data-formats]")) {
      const applies = input.dataset.formats.split(" ").includes(chosen);
      const field = input.closest(".field");
      field.hidden = !applies;
      input.disabled = !applies;
    }
    const size = form.elements.table_size;
    const sizes = (pairs(size.dataset.sizes)[chosen] || "").split(",");
    for (const option of size.options) option.disabled = !sizes.includes(option.value);
    if (size.selectedOptions[0]?.disabled) size.value = sizes[0];
    const most = form.elements.max_players;
    const limit = pairs(most.dataset.most)[chosen];
    if (limit) {
      most.max = limit;
      if (Number(most.value) > Number(limit)) most.value = limit;
    }
  };
  format.addEventListener("change", update);
  update();
}
if (form) startInLocalTime(form);
