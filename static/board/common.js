// What every board drawing needs: SVG elements, titles, and keyboard-operable targets.
// Used by every game's board object (static/board/boards.js lists them; docs/subsystems/front-end.md, "Boards").
/* global gettext, interpolate */

export const SVG = "http://www.w3.org/2000/svg";

export function el(name, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

export function titled(node, text) {
  node.prepend(el("title", {}, text));
  return node;
}

// A drawn thing a player can choose with a mouse, a finger or the keyboard (Enter or Space).
export function activate(node, label, action) {
  node.setAttribute("role", "button");
  node.setAttribute("tabindex", "0");
  node.setAttribute("aria-label", label);
  node.addEventListener("click", action);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      action();
    }
  });
  return node;
}

// The player's board preferences (accounts Preferences; static/js/preferences.js for visitors),
// as base.html and preferences.js set them on <body>: coordinates on unless switched off.
export function coordinatesShown() {
  // A visitor's choice is in the browser; a board may be drawn before preferences.js has
  // copied it onto <body> (page modules run before DOMContentLoaded).
  const prefs = window.topiaryPrefs;
  if (prefs && !prefs.signedIn) return prefs.read().coordinates !== false;
  return document.body?.dataset.coordinates !== "0";
}

// How many CSS pixels one board unit measures as the board is shown now (0 while not laid out).
export function pixelsPerUnit(svg, width) {
  return svg.getBoundingClientRect().width / width;
}

// WCAG 2.5.5: a target for a finger is at least 44x44 CSS px; for a mouse 24 (WCAG 2.5.8).
export const FINGER = 44;
export const POINTER = 24;

// Whether targets of ``units`` board units may be offered one by one: big enough for any
// finger, or a mouse is the pointer and they are big enough for it.
export function directTargets(svg, width, units) {
  const size = pixelsPerUnit(svg, width) * units;
  if (!size) return true;
  return size >= FINGER || (window.matchMedia("(pointer: fine)").matches && size >= POINTER);
}

// Cell names inside a board's edge cells, as the notation writes them: the file in the
// bottom row's lower left corner, the rank in the left column's upper left corner.
export function coordinates(files, ranks, origin, size) {
  const group = el("g", { class: "coordinates", "aria-hidden": "true" });
  if (!coordinatesShown()) return group;
  const inset = size * 0.07;
  for (const file of files) {
    const [x, y] = origin(`${file}1`);
    group.append(el("text", { class: "file", x: x + inset, y: y + size - inset }, file));
  }
  for (let rank = 1; rank <= ranks; rank++) {
    const [x, y] = origin(`${files[0]}${rank}`);
    group.append(el("text", { class: "rank", x: x + inset, y: y + inset, "dominant-baseline": "hanging" },
      String(rank)));
  }
  return group;
}

// The seat colours, the same on every board and panel (a swatch, a pawn, a score row).
export const SEAT_COLOURS = ["#c0392b", "#1f5fbf", "#8e44ad", "#d4a017"];

export function seatSwatch(seat, className = "swatch") {
  const swatch = document.createElement("span");
  swatch.className = className;
  swatch.dataset.seat = seat;
  swatch.style.background = SEAT_COLOURS[seat];
  return swatch;
}

// "Seat 2": a seat whose player's name the page does not know.
export function seatNumber(seat) {
  return interpolate(gettext("Seat %(number)s"), { number: seat + 1 }, true);
}
