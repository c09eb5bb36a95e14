// What every board drawing needs: SVG elements, titles, and keyboard-operable targets.
// Used by static/board/topiary.js and static/board/wizards_garden.js (docs/subsystems/front-end.md, "Boards").
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
