// Times in the viewer's own zone. The server writes every time as
// <time datetime="…Z" data-local="style">… UTC</time>, which stands without JavaScript;
// this rewrites each in the viewer's zone ("moment": date and time, "clock": time of
// day, "timeline": "in 12 min · tonight 20:00") and names the zone wherever the page
// has a [data-local-zone]. The UTC text stays as the element's title. The zone is the
// one the player chose in their settings (<html data-zone>, rendered by the server),
// else the browser's.
/* global gettext, pgettext, interpolate */

const lang = document.documentElement.lang || undefined;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The chosen zone if this browser knows it, else the browser's own (undefined). */
function chosenZone() {
  const zone = document.documentElement.dataset.zone;
  if (!zone) return undefined;
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return zone;
  } catch {
    return undefined;
  }
}

const timeZone = chosenZone();
const clockFormat = new Intl.DateTimeFormat(lang, { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone });
const momentFormat = new Intl.DateTimeFormat(lang, {
  day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone,
});
const dateFormat = new Intl.DateTimeFormat(lang, { day: "numeric", month: "short", timeZone });
const weekdayFormat = new Intl.DateTimeFormat(lang, { weekday: "long", timeZone });
const wallFormat = new Intl.DateTimeFormat("en", {
  year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", hourCycle: "h23", timeZone,
});
const relative = new Intl.RelativeTimeFormat(lang, { numeric: "auto", style: "short" });

/** The viewer's zone as people name it: "Asia/Tokyo, GMT+9". */
export function zoneName() {
  const zone = timeZone || Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  const offset = new Intl.DateTimeFormat("en", { timeZoneName: "shortOffset", timeZone: zone })
    .formatToParts(new Date())
    .find((part) => part.type === "timeZoneName")?.value;
  return offset && offset !== zone ? `${zone}, ${offset}` : zone;
}

/** The wall clock of ``date`` in the viewer's zone: year, month, day, hour, minute. */
function wall(date) {
  const part = Object.fromEntries(wallFormat.formatToParts(date).map((p) => [p.type, +p.value]));
  return [part.year, part.month, part.day, part.hour % 24, part.minute];
}

/** The calendar day (as a day number) and hour of ``date`` in the viewer's zone. */
function local(date) {
  const [year, month, day, hour] = wall(date);
  return { day: Date.UTC(year, month - 1, day) / DAY, hour };
}

const pad = (n) => String(n).padStart(2, "0");

/** ``date`` as a datetime-local input writes it, in the viewer's zone: "2026-11-28T20:00". */
export function wallValue(date) {
  const [year, month, day, hour, minute] = wall(date);
  return `${year}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}`;
}

/** Minutes east of UTC of the viewer's zone at the wall-clock time ``value``
 * ("2026-11-28T20:00"; summer time included), or null for no such time. */
export function offsetAt(value) {
  const asUtc = Date.parse(`${value}Z`);
  if (Number.isNaN(asUtc)) return null;
  const offsetOf = (ms) => {
    const [year, month, day, hour, minute] = wall(new Date(ms));
    return Math.round((Date.UTC(year, month - 1, day, hour, minute) - ms) / MINUTE);
  };
  // The offset at the wall time read as UTC, then at the moment that offset gives.
  return offsetOf(asUtc - offsetOf(asUtc) * MINUTE);
}

/** "tonight 20:00", "tomorrow 09:00", "Saturday 17:00", "5 Dec 18:00" (local). */
function dayAndClock(date, now) {
  const when = local(date);
  const days = when.day - local(now).day;
  const clock = clockFormat.format(date);
  let day;
  if (days === 0 && when.hour >= 18) day = pgettext("an event's day", "tonight");
  else if (Math.abs(days) <= 1) day = relative.format(days, "day");
  else if (days > 1 && days < 7) day = weekdayFormat.format(date);
  else day = dateFormat.format(date);
  return interpolate(pgettext("a day, then a time of day", "%(day)s %(clock)s"), { day, clock }, true);
}

/** "in 12 min", "in 3 hr", or nothing beyond a day (the day says it then). */
function fromNow(date, now) {
  const ms = date - now;
  if (ms <= 0) return pgettext("an event's start", "now");
  const minutes = Math.max(1, Math.round(ms / MINUTE));
  if (minutes < 60) return relative.format(minutes, "minute");
  if (ms < DAY) return relative.format(Math.round(ms / HOUR), "hour");
  return "";
}

const STYLES = {
  moment: (date) => momentFormat.format(date),
  clock: (date) => clockFormat.format(date),
  day: (date, now) => dayAndClock(date, now),
  timeline: (date, now) => [fromNow(date, now), dayAndClock(date, now)].filter(Boolean).join(" · "),
};

/** Rewrite every server-written time under ``root`` in the viewer's zone. */
export function localizeTimes(root = document, now = new Date()) {
  for (const element of root.querySelectorAll("time[data-local]")) {
    const date = new Date(element.getAttribute("datetime"));
    const style = STYLES[element.dataset.local];
    if (!style || Number.isNaN(date.getTime())) continue;
    if (!element.title) element.title = element.textContent;
    element.textContent = style(date, now);
  }
  for (const element of root.querySelectorAll("[data-local-zone]")) element.textContent = zoneName();
}

localizeTimes();
// "in 12 min" moves on.
setInterval(() => localizeTimes(), 30_000);
