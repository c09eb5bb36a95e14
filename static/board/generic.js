// The board of a game without a board script of its own (boards.js falls back to it): a
// grid drawn from the position's ``cells`` ({"a1": "X", "b1": "", ...}: each cell's name as
// the notation writes it and what stands on it, in short text), and targets from the legal
// moves' notation: a move that starts with a cell's name is picked on that cell, any other
// is a button. Enough to play a game registered with only its engine module (the third
// game test's Three in a Row); a game worth its players' eyes gets its own script
// (docs/subsystems/game-definitions.md, "Adding a game").
/* global gettext, interpolate */

import { activate, coordinates, el, titled } from "./common.js";

const CELL = 64;
const GAP = 4;
const EDGE = 16;
const say = (format, values) => interpolate(format, values, true);

// The grid of a position: its files (letters) and ranks (numbers) from the cells' names.
function gridOf(position) {
  const names = Object.keys(position?.cells ?? {}).filter((name) => /^[a-z][0-9]+$/.test(name));
  const files = [...new Set(names.map((name) => name[0]))].sort().join("");
  const ranks = Math.max(0, ...names.map((name) => Number(name.slice(1))));
  const origin = (cell) => [EDGE + files.indexOf(cell[0]) * (CELL + GAP),
    EDGE + (ranks - Number(cell.slice(1))) * (CELL + GAP)];
  return { names: new Set(names), files, ranks, origin };
}

// The cell a move is picked on (its leading cell name), or null when it names none.
function cellOf(move, grid) {
  const cell = move.match(/^[a-z][0-9]+/)?.[0];
  return cell && grid.names.has(cell) ? cell : null;
}

// Draws ``position`` into ``svg``. Options: targets (cells that may be chosen), chosen
// (a cell), onCell(cell) (what choosing one does), marked (a cell ringed: a suggested move).
export function drawGrid(svg, position, options = {}) {
  const { targets = new Set(), chosen = null, onCell, marked = null } = options;
  const grid = gridOf(position);
  const width = 2 * EDGE + grid.files.length * CELL + Math.max(0, grid.files.length - 1) * GAP;
  const height = 2 * EDGE + grid.ranks * CELL + Math.max(0, grid.ranks - 1) * GAP;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.classList.add("generic-board");
  const layer = el("g");
  svg.replaceChildren(layer);
  for (const cell of [...grid.names].sort()) {
    const [x, y] = grid.origin(cell);
    const mark = position.cells[cell] ?? "";
    const square = el("rect", { class: "cell focus-ring", x, y, width: CELL, height: CELL, rx: 6 });
    const group = el("g", { class: "grid-cell", "data-cell": cell, "data-mark": mark }, square);
    if (mark) group.append(el("text", { class: "mark", x: x + CELL / 2, y: y + CELL / 2 + 2 }, mark));
    titled(group, mark ? `${cell}: ${mark}` : say(gettext("%(cell)s: empty"), { cell }));
    if (cell === chosen || cell === marked) square.classList.add("chosen");
    if (targets.has(cell) && onCell) {
      square.classList.add("legal");
      activate(group, say(gettext("Choose %(cell)s"), { cell }), () => onCell(cell));
    }
    layer.append(group);
  }
  layer.append(coordinates(grid.files, grid.ranks, grid.origin, CELL));
  return grid;
}

// ------------------------------------------------------------------ the game page

// The game page's board (static/games/game.js; see topiary.js for what ``page`` gives).
export function gamePage(page) {
  const { state, svg } = page;
  const steps = () => (page.myTurn() ? page.legalSteps() : []);
  let grid = gridOf(state.frame.position);
  function pickCell(cell) {
    const here = steps().filter((move) => cellOf(move, grid) === cell);
    page.choose(here.length === 1 ? { cell, move: here[0] } : { cell, move: undefined });
  }
  return {
    draw() {
      const targets = new Set(steps().map((move) => cellOf(move, grid)).filter(Boolean));
      grid = drawGrid(svg, state.frame.position, {
        targets: state.pick.move ? new Set() : targets, chosen: state.pick.cell, onCell: pickCell,
      });
    },
    chooser() {
      const { pick } = state;
      if (pick.move) return { prompt: page.playPrompt(pick.move), options: [] };
      const here = pick.cell ? steps().filter((move) => cellOf(move, grid) === pick.cell) : [];
      const loose = steps().filter((move) => !cellOf(move, grid));
      const options = (here.length ? here : loose).map((move) => [move, { move }]);
      return { prompt: gettext("Choose your move"), options };
    },
    drawHand() {},
    drawExtras() {},
    seatDetail: () => [],
    handOf: () => null,
    moveLines: () => state.frame.moves.map((entry) => ({ seat: entry.seat, move: entry.move, took: entry.took, open: false })),
    waiting: () => null,
    afterChoose() {},
    afterTurn() {},
  };
}

// ------------------------------------------------------------------ replay, analysis, rules

export function replayBoard(frame) {
  const svg = el("svg", { class: "board", role: "img",
    "aria-label": say(gettext("Board after ply %(ply)s"), { ply: frame.ply }) });
  drawGrid(svg, frame.position);
  return [svg];
}

export function replayFocus() {
  return null;
}

// The engine's suggested move (post-game analysis): its cell ringed.
export function markMove(svg, move) {
  const cell = move.match(/^[a-z][0-9]+/)?.[0];
  const node = cell && svg.querySelector(`[data-cell="${cell}"] .cell`);
  node?.classList.add("chosen");
  return node;
}

export function figure(svg, shown) {
  drawGrid(svg, shown.position);
  return "";
}

// A lesson's board (static/learn/lesson.js; see topiary.js's ``lesson`` for ``page``).
export function lesson(page) {
  const moves = () => (page.open() ? page.shown().legal_steps : []);
  const cellMoves = (cell) => moves().filter((move) => move.startsWith(cell));
  return {
    draw() {
      const grid = gridOf(page.shown().position);
      const targets = new Set(moves().map((move) => cellOf(move, grid)).filter(Boolean));
      drawGrid(page.svg, page.shown().position, {
        targets, chosen: page.pick()?.cell, onCell: (cell) => page.choose({ cell }),
      });
    },
    choices() {
      if (!page.pick() || !page.open()) return [];
      return cellMoves(page.pick().cell).map((move) => page.button(move, { "data-move": move }, () => page.send([move])));
    },
    idle: gettext("Choose a highlighted cell."),
    facts: () => "",
    summary: () => "",
  };
}
