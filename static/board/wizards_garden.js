// The Wizards' Garden board, drawn the same on every page (the game page, the replay):
// 4x4 planting beds, white (Dovetail) and black (Ravenclaw) seeds, the basket and the
// Wizard's Staff (docs/ARCHITECTURE.md, "Front end"; /shared/UI.md).
/* global gettext, ngettext, interpolate */

import { coordinates, el, seatNumber, titled } from "./common.js";

export const BED = 80;
const GAP = 6;
const EDGE = 20;
const FILES = "abcd";
export const BOARD_SIZE = 2 * EDGE + 4 * BED + 3 * GAP;

export function bedOrigin(cell) {
  return [EDGE + FILES.indexOf(cell[0]) * (BED + GAP), EDGE + (4 - Number(cell[1])) * (BED + GAP)];
}
function seedAt(board, cell) {
  return board[4 - Number(cell[1])][FILES.indexOf(cell[0])];
}
function seedName(seed) {
  if (seed === "W") return gettext("white seed (Dovetail)");
  return seed === "B" ? gettext("black seed (Ravenclaw)") : gettext("empty bed");
}

// Draws ``position`` into ``svg``. Options: previous (the board before the latest move, to
// show what flipped and what was harvested), seatName, and onCell(group, cell, seed, bed)
// for the page's own marks and actions.
export function drawBoard(svg, position, options = {}) {
  const { previous = null, seatName = seatNumber, onCell } = options;
  svg.setAttribute("viewBox", `0 0 ${BOARD_SIZE} ${BOARD_SIZE + 56}`);
  svg.classList.add("wizards-board");
  const layer = el("g");
  svg.replaceChildren(layer);
  for (let r = 4; r >= 1; r--) {
    for (const f of FILES) {
      const cell = f + r;
      const [x, y] = bedOrigin(cell);
      const seed = seedAt(position.board, cell);
      const bed = el("rect", { class: "bed focus-ring", x, y, width: BED, height: BED, rx: 8 });
      const group = el("g", { class: "bed-cell", "data-cell": cell, "data-seed": seed }, bed);
      const before = previous ? seedAt(previous, cell) : null;
      if (before && before !== "." && seed === ".") {
        group.append(el("circle", { class: "harvest-flash", cx: x + BED / 2, cy: y + BED / 2, r: 30 }));
      }
      if (seed !== ".") {
        if (before && before !== "." && before !== seed) group.classList.add("flipped");
        group.append(
          el("circle", { class: `seed seed-${seed}`, cx: x + BED / 2, cy: y + BED / 2, r: 28 }),
          el("circle", { class: "seed-ring", cx: x + BED / 2, cy: y + BED / 2, r: 31 }),
        );
      }
      titled(group, `${cell}: ${seedName(seed)}`);
      onCell?.(group, cell, seed, bed);
      layer.append(group);
    }
  }
  layer.append(coordinates(FILES, 4, bedOrigin, BED));
  const staff = position.staff === null
    ? gettext("Wizard's Staff: beside the board")
    : interpolate(gettext("Wizard's Staff: with %(player)s"), { player: seatName(position.staff) }, true);
  const basket = interpolate(ngettext("Basket: %(count)s seed", "Basket: %(count)s seeds", position.basket),
    { count: position.basket }, true);
  layer.append(
    el("text", { class: "board-note", x: EDGE, y: BOARD_SIZE + 16 }, basket),
    el("text", { class: "board-note staff", x: EDGE, y: BOARD_SIZE + 40 }, staff),
  );
}

// The engine's suggested move (post-game analysis): a dashed ring on its bed and the side
// it plants, a small seed of that colour (``b2W``: white in b2).
export function markMove(svg, move) {
  const cell = move.slice(0, 2);
  const seed = move[2];
  const [x, y] = bedOrigin(cell);
  const mark = el("g", { class: "engine-move", "data-move": move },
    el("rect", { class: "engine-take", x: x - 3, y: y - 3, width: BED + 6, height: BED + 6, rx: 10 }),
    el("circle", { class: `seed seed-${seed}`, cx: x + 16, cy: y + 16, r: 10 }));
  svg.append(titled(mark, interpolate(gettext("Engine's move: %(move)s (%(seed)s in %(cell)s)"),
    { move, seed: seedName(seed), cell }, true)));
  return mark;
}
