// Topiary's board object, as boardgame.io's one game object serves its client: the garden drawn
// the same on every page, its targets and how a move is picked on them (one click, or on a
// phone the edge cell then the direction), its coordinates, score columns and end-of-game
// reveal, and what each page asks of it: gamePage, lesson, figure, replayBoard (found by the
// game's name through boards.js; docs/subsystems/front-end.md, "Boards"; /shared/UI.md).
// It draws only what it is given: the position and the engine's sight lines (`sight_lines`
// in game frames, puzzle payloads and replay frames); it never works out what a visitor sees.
// Its words come from Django's JavaScript catalogue (base.html), in the page's language.
/* global gettext, ngettext, pgettext, interpolate */

import {
  FINGER, SEAT_COLOURS, activate, coordinates, directTargets, el, pixelsPerUnit, seatNumber, seatSwatch, titled,
} from "./common.js";

export { SEAT_COLOURS, activate, el, titled };

// Eight types, the Okabe-Ito colours, and a glyph so no two types differ by hue alone.
// The names are the engine's English ones, translated here (a tile code such as E4 is not).
export const TYPES = {
  E: { name: gettext("Elephant"), fill: "#E69F00", ink: "#000" },
  H: { name: gettext("Polyhedron"), fill: "#56B4E9", ink: "#000" },
  N: { name: gettext("Swan"), fill: "#009E73", ink: "#fff" },
  O: { name: gettext("Pom Pom"), fill: "#F0E442", ink: "#000" },
  P: { name: gettext("Pyramid"), fill: "#0072B2", ink: "#fff" },
  R: { name: gettext("T-Rex"), fill: "#D55E00", ink: "#fff" },
  S: { name: gettext("Spiral"), fill: "#CC79A7", ink: "#000" },
  W: { name: gettext("Whale"), fill: "#000000", ink: "#fff" },
};
// Each glyph is drawn in a 20x20 box at the tile's top right corner.
const GLYPHS = {
  E: "M3 15V9a7 6 0 0 1 14 0v3q0 5 -3 6M7 15v3M12 15v3",
  H: "M10 2L17 6V14L10 18L3 14V6ZM10 10V18M10 10L17 6M10 10L3 6",
  N: "M4 16Q10 19 16 15Q15 11 9 12Q13 8 9 3Q7 2 6 4",
  O: "M10 3.5a2.5 2.5 0 1 0 0.01 0M10 8.5a3 3 0 1 0 0.01 0M10 14a3.5 3.5 0 1 0 0.01 0",
  P: "M10 3L18 17H2Z",
  R: "M3 17L6 11L5 5Q9 2 14 4L17 7L13 8L12 11L9 12L9 17M12 11l2 2",
  S: "M10 10a1.5 1.5 0 0 1 3 0a3 3 0 0 1 -6 0a4.5 4.5 0 0 1 9 0a6 6 0 0 1 -12 0",
  W: "M2 12Q6 5 13 9Q15 10 16 8L18 5V12Q14 16 8 16Q3 16 2 12Z",
};

// The words for a take, the same on the game page and the puzzle: the same choice reads
// the same on both.
export const TAKE_WORDS = {
  placeOnly: gettext("Place only (take nothing)"),
  takeOrPlace: gettext("Take a face-down tile from the line, or place only"),
  mustTake: gettext("Take a face-down tile from the line"),
  nothingToTake: gettext("No face-down tile in this line: place only"),
  plantPrompt: (took, cell) => interpolate(
    gettext("You took %(tile)s. Choose the tile to plant face up at %(cell)s: any of your four."),
    { tile: tileName(took), cell }, true),
  plant: (code) => interpolate(gettext("Plant %(tile)s"), { tile: tileName(code) }, true),
  justTaken: gettext("just taken"),
  // A tile's label with the mark of the tile just taken: "Plant Whale 3 (just taken)".
  withJustTaken: (label) => interpolate(gettext("%(tile)s (just taken)"), { tile: label }, true),
  takeAt: (cell) => interpolate(gettext("Take the face-down tile at %(cell)s"), { cell }, true),
  placeAt: (pos) => interpolate(gettext("Place a visitor at %(position)s"), { position: pos }, true),
  // What a choice scores now, said before it is confirmed (the points the engine counted).
  wouldSee: (pos, points) => interpolate(ngettext("A visitor at %(position)s would see %(count)s now.",
    "A visitor at %(position)s would see %(count)s now.", points), { position: pos, count: points }, true),
};

// Geometry: 5x5 tiles with gaps, and a margin for the visitors on every edge and corner.
// A visitor stands behind its entry tile, looking along its line: those on a diagonal close
// to the tile's corner, those on an edge further out, so that no two pawns ever overlap.
// The margin is kept narrow so a tile measures 44 CSS px on a 300 px garden (a phone).
export const TILE = 64;
const GAP = 6;
const MARGIN = 42;
const STEP = TILE + GAP;
const STRAIGHT_REACH = 59;
const DIAGONAL_REACH = 47.5;
// The square a free position owns when positions are offered one by one (a mouse on a
// large garden): the nearest two positions' squares just touch.
const OWN = 22;
export const GARDEN_SIZE = 2 * MARGIN + 5 * TILE + 4 * GAP;
const FILES = "abcde";
const DIRECTIONS = {
  N: [0, 1], NE: [1, 1], E: [1, 0], SE: [1, -1], S: [0, -1], SW: [-1, -1], W: [-1, 0], NW: [-1, 1],
};

export function tileName(code) {
  return `${TYPES[code[0].toUpperCase()].name} ${code[1]}`;
}
export function cellOrigin(cell) {
  return [MARGIN + FILES.indexOf(cell[0]) * STEP, MARGIN + (5 - Number(cell[1])) * STEP];
}
export function gardenAt(position, cell) {
  return position.garden[5 - Number(cell[1])][FILES.indexOf(cell[0])];
}
// A cell's code: "R3" face up, "?" face down, "r3" face down with a known identity (the
// puzzle, or a finished game), "." empty (a take waiting for its plant).
export function isGap(code) {
  return code === ".";
}
export function isFaceUp(code) {
  return code !== "?" && !isGap(code) && code[0] === code[0].toUpperCase();
}
function knownBack(code) {
  return code !== "?" && !isGap(code) && !isFaceUp(code);
}

// [x, y] of a visitor's pawn and the unit step of its look on screen.
export function pawnSpot(pos) {
  const [entry, dir] = pos.split(":");
  const [df, dr] = DIRECTIONS[dir];
  const [x, y] = cellOrigin(entry);
  const reach = df && dr ? DIAGONAL_REACH : STRAIGHT_REACH;
  const norm = Math.hypot(df, dr);
  return [x + TILE / 2 - df * reach, y + TILE / 2 + dr * reach, df / norm, -dr / norm];
}

// What the engine says a visitor at ``pos`` looks along and sees (its `sight_lines` entry).
export function sightOf(sightLines, pos) {
  const sight = (sightLines ?? []).find((line) => line.position === pos);
  return { line: sight?.line ?? [], cells: sight ? sight.seen.map(({ cell }) => cell) : [],
    points: sight?.points ?? 0 };
}

// ------------------------------------------------------------------ the pieces

export function tileFace(code, x, y, size = TILE) {
  const { fill, ink } = TYPES[code[0]];
  const scale = size / TILE;
  const group = el("g", { class: "tile-art", "data-type": code[0], "data-value": code[1] });
  group.append(
    el("rect", { class: "tile-face", x, y, width: size, height: size, rx: 6 * scale, fill }),
    el("text", { class: "value", x: x + size / 2, y: y + size * 0.68, "text-anchor": "middle", fill: ink,
      "font-size": 28 * scale }, code[1]),
    el("path", { class: "glyph", d: GLYPHS[code[0]], stroke: ink, fill: "none",
      transform: `translate(${x + size - 23 * scale} ${y + 3 * scale}) scale(${scale})` }),
  );
  return titled(group, tileName(code));
}

export function tileBack(x, y, size = TILE, code = "?") {
  const back = el("rect", { class: "tile-back", x, y, width: size, height: size, rx: 6, fill: "url(#hedge)" });
  if (!knownBack(code)) return titled(back, gettext("Face-down tile"));
  // A face-down tile whose identity the page may show: small and dimmed, still face down.
  const face = code.toUpperCase();
  const small = tileFace(face, x + size * 0.4, y + size * 0.4, size * 0.56);
  small.classList.add("revealed-identity");
  return titled(el("g", { class: "tile-back-known" }, back, small),
    interpolate(gettext("Face-down tile: %(tile)s"), { tile: tileName(face) }, true));
}

export function gapSlot(x, y) {
  return titled(el("rect", { class: "gap", x: x + 2, y: y + 2, width: TILE - 4, height: TILE - 4, rx: 6 }),
    gettext("Empty: the tile here was taken, one is about to be planted"));
}

// One tile on its own, for a hand tray or a panel.
export function miniTile(code, className = "mini-tile") {
  const art = el("svg", { class: className, viewBox: `0 0 ${TILE} ${TILE}`, role: "img",
    "aria-label": tileName(code), "data-tile": code });
  art.append(tileFace(code, 0, 0));
  return art;
}

// A visitor: a pawn in its seat colour with the points it makes now on it, and an arrow
// along its sight line.
export function pawn(pos, seat, points, label) {
  const [cx, cy, dx, dy] = pawnSpot(pos);
  const colour = SEAT_COLOURS[seat];
  const group = el("g", { class: "visitor", "data-position": pos, "data-seat": seat });
  const reach = arrowReach(pos);
  group.append(
    el("line", { class: "arrow", x1: cx + dx * 13, y1: cy + dy * 13, x2: cx + dx * reach, y2: cy + dy * reach,
      stroke: colour, "marker-end": "url(#tip)" }),
    el("circle", { class: "pawn", cx, cy, r: 11, fill: colour }),
    el("circle", { class: "pawn-outline", cx, cy, r: 12.5 }),
    el("text", { class: "seen", x: cx, y: cy + 4, "text-anchor": "middle" }, String(points)),
  );
  return titled(group, label);
}

// How far a visitor's arrow reaches from its pawn: its tip stops short of the entry tile.
function arrowReach(pos) {
  return pos.split(":")[1].length === 2 ? 17 : 20;
}

// A free position, drawn where its visitor would stand. ``own`` (board units) is the square
// a pointer may use for it alone; without it the mark is only shown.
export function target(pos, chosen = false, own = 0) {
  const [cx, cy, dx, dy] = pawnSpot(pos);
  const group = el("g", { class: `target${chosen ? " chosen" : ""}`, "data-position": pos },
    el("line", { class: "arrow", x1: cx + dx * 8, y1: cy + dy * 8, x2: cx + dx * 14, y2: cy + dy * 14 }),
    el("circle", { class: "spot focus-ring", cx, cy, r: 8 }));
  if (own) group.prepend(el("rect", { class: "hit", x: cx - own / 2, y: cy - own / 2, width: own, height: own }));
  return group;
}

// Where a finger cannot tell free positions apart (a garden a phone's width), they are
// picked in two steps, as Board Game Arena and lichess's "square, then destinations" do:
// first the edge cell (the tile and the margin beside it, each a finger's width), then the
// direction among that cell's free positions, drawn large over the garden.
function edgeCell(pos) {
  return pos.split(":")[0];
}

// The area a finger uses for an edge cell: its tile, half the gaps beside it and the margin
// out to the garden's border (a corner cell also owns the corner). No two of them overlap.
function edgeArea(cell) {
  const [x, y] = cellOrigin(cell);
  const file = FILES.indexOf(cell[0]);
  const rank = Number(cell[1]);
  const left = file === 0 ? 0 : x - GAP / 2;
  const right = file === 4 ? GARDEN_SIZE : x + TILE + GAP / 2;
  const top = rank === 5 ? 0 : y - GAP / 2;
  const bottom = rank === 1 ? GARDEN_SIZE : y + TILE + GAP / 2;
  return { x: left, y: top, width: right - left, height: bottom - top };
}

function edgeTarget(cell, positions) {
  const area = edgeArea(cell);
  const group = el("g", { class: "target target-edge", "data-edge": cell },
    el("rect", { class: "hit", ...area }),
    el("rect", { class: "edge-ring focus-ring", x: area.x + 2, y: area.y + 2, width: area.width - 4,
      height: area.height - 4, rx: 8 }));
  for (const pos of positions) group.append(target(pos));
  const label = interpolate(ngettext("%(cell)s: %(count)s free position, choose to see it",
    "%(cell)s: %(count)s free positions, choose to see their directions", positions.length),
  { cell, count: positions.length }, true);
  return { group, label };
}

// The second step: the edge cell's free positions as large buttons around the cell drawn in
// the garden's middle, each where its visitor would stand and pointing along its look, with
// the points it would score now; a Back button in the corner. Each owns a square of at least
// ``side`` board units, and none overlaps another.
function directionPicker(cell, positions, { sightLines, side, position, onChoose, onClose }) {
  const centre = GARDEN_SIZE / 2;
  const distance = side * 1.45;
  const picker = el("g", { class: "direction-picker", "data-edge": cell, role: "group",
    "aria-label": interpolate(gettext("Directions from %(cell)s"), { cell }, true) });
  const backdrop = el("rect", { class: "picker-backdrop", x: 0, y: 0, width: GARDEN_SIZE, height: GARDEN_SIZE });
  backdrop.addEventListener("click", onClose);
  picker.append(backdrop);
  const code = gardenAt(position, cell);
  const tileSize = side;
  const corner = centre - tileSize / 2;
  picker.append(isFaceUp(code) ? tileFace(code, corner, corner, tileSize) : tileBack(corner, corner, tileSize));
  picker.append(el("text", { class: "picker-cell", x: centre, y: corner + tileSize + 18, "text-anchor": "middle" },
    cell));
  for (const pos of positions) {
    const [df, dr] = DIRECTIONS[pos.split(":")[1]];
    const x = centre - df * distance;
    const y = centre + dr * distance;
    const norm = Math.hypot(df, dr);
    const [ux, uy] = [df / norm, -dr / norm];
    const { points } = sightOf(sightLines, pos);
    const button = el("g", { class: "target target-direction", "data-position": pos },
      el("rect", { class: "hit focus-ring", x: x - side / 2, y: y - side / 2, width: side, height: side,
        rx: side / 5 }),
      el("line", { class: "arrow", x1: x + ux * side * 0.08, y1: y + uy * side * 0.08, x2: x + ux * side * 0.34,
        y2: y + uy * side * 0.34, "marker-end": "url(#tip)" }),
      el("circle", { class: "spot", cx: x - ux * side * 0.12, cy: y - uy * side * 0.12, r: side * 0.2 }),
      el("text", { class: "points", x: x - ux * side * 0.12, y: y - uy * side * 0.12 + side * 0.08,
        "text-anchor": "middle", "font-size": side * 0.24 }, String(points)));
    const label = interpolate(ngettext("Place a visitor at %(position)s: sees %(count)s now",
      "Place a visitor at %(position)s: sees %(count)s now", points), { position: pos, count: points }, true);
    activate(button, label, () => onChoose(pos));
    picker.append(button);
  }
  const back = el("g", { class: "target picker-back", "data-action": "back" },
    el("rect", { class: "hit focus-ring", x: GARDEN_SIZE - side - 4, y: 4, width: side, height: side, rx: side / 5 }),
    el("path", { class: "back-mark", d: crossPath(GARDEN_SIZE - side / 2 - 4, 4 + side / 2, side * 0.18) }));
  activate(back, gettext("Back to the edges"), onClose);
  picker.append(back);
  picker.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    // The picker is this step's own: Esc closes it before the page steps back.
    event.stopPropagation();
    onClose();
  });
  return picker;
}

function crossPath(x, y, r) {
  return `M${x - r} ${y - r}L${x + r} ${y + r}M${x + r} ${y - r}L${x - r} ${y + r}`;
}

function defs() {
  return el("defs", {},
    el("pattern", { id: "hedge", width: 10, height: 10, patternUnits: "userSpaceOnUse" },
      el("rect", { width: 10, height: 10, fill: "#3d7a45" }),
      el("circle", { cx: 3, cy: 3, r: 1.6, fill: "#4f9458" }),
      el("circle", { cx: 8, cy: 8, r: 1.2, fill: "#336b3b" })),
    el("marker", { id: "tip", viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 3, markerHeight: 3,
      orient: "auto-start-reverse" }, el("path", { d: "M0 0L10 5L0 10Z", fill: "context-stroke" })));
}

// ------------------------------------------------------------------ the whole garden

// Draws ``position`` into ``svg``. Options:
//   sightLines  the engine's sight lines (placed visitors, and free positions on one's turn)
//   focus       the position whose line is highlighted and whose seen tiles are ringed
//   gap         a cell drawn empty (a take chosen but not yet sent, as on the puzzle page)
//   preview     {cell, code}: the tile about to be planted, drawn faintly where it goes
//   targets     free positions to offer; chosen: the one chosen
//   seatName    seat -> name, for the pawns' titles
//   onChoose(pos) the page's action when a free position is chosen: with it the targets are
//               offered, one by one where a pointer can tell them apart, else in two steps
//               (the edge cell, then the direction); without it they are only drawn
//   onCell(group, cell, code), onVisitor(group, pos), onTarget(group, pos): the page's
//   own marks and actions on each drawn piece.
export function drawGarden(svg, position, options = {}) {
  const { sightLines = [], focus = null, gap = null, preview = null, targets = [], chosen = null,
    seatName = seatNumber, onCell, onVisitor, onTarget, onChoose } = options;
  drawn.set(svg, [position, options]);
  watchSize(svg);
  svg.setAttribute("viewBox", `0 0 ${GARDEN_SIZE} ${GARDEN_SIZE}`);
  svg.classList.add("garden");
  const layer = el("g");
  svg.replaceChildren(defs(), layer);
  const sight = focus ? sightOf(sightLines, focus) : { line: [], cells: [] };
  for (let r = 5; r >= 1; r--) {
    for (const f of FILES) {
      const cell = f + r;
      const [x, y] = cellOrigin(cell);
      const code = cell === gap ? "." : gardenAt(position, cell);
      const classes = ["tile"];
      if (sight.line.includes(cell)) classes.push("in-line");
      if (sight.cells.includes(cell)) classes.push("sees");
      const group = el("g", { class: classes.join(" "), "data-cell": cell,
        "data-tile": isFaceUp(code) ? code : null });
      if (isGap(code)) group.append(gapSlot(x, y));
      else group.append(isFaceUp(code) ? tileFace(code, x, y) : tileBack(x, y, TILE, code));
      if (preview && preview.cell === cell) {
        const faint = tileFace(preview.code, x, y);
        faint.classList.add("preview");
        group.append(faint);
      }
      group.append(el("rect", { class: "sight-ring focus-ring", x: x - 3, y: y - 3, width: TILE + 6,
        height: TILE + 6, rx: 8, fill: "none" }));
      onCell?.(group, cell, code);
      layer.append(group);
    }
  }
  layer.append(coordinates(FILES, 5, cellOrigin, TILE));
  for (const [pos, seat] of Object.entries(position.visitors)) {
    const { points } = sightOf(sightLines, pos);
    const label = interpolate(ngettext("%(player)s's visitor at %(position)s: sees %(count)s now",
      "%(player)s's visitor at %(position)s: sees %(count)s now", points),
    { player: seatName(seat), position: pos, count: points }, true);
    const group = pawn(pos, seat, points, label);
    group.setAttribute("tabindex", "0");
    onVisitor?.(group, pos);
    layer.append(group);
  }
  const direct = !onChoose || directTargets(svg, GARDEN_SIZE, OWN);
  svg.dataset.picking = direct ? "direct" : "edge";
  if (direct) {
    for (const pos of targets) {
      const group = target(pos, pos === chosen, onChoose ? OWN : 0);
      if (onChoose) activate(group, TAKE_WORDS.placeAt(pos), () => onChoose(pos));
      onTarget?.(group, pos);
      layer.append(group);
    }
    return;
  }
  // A position chosen: it alone is shown, the way back to the others is Cancel (or Esc).
  if (chosen) {
    opened.delete(svg);
    layer.append(target(chosen, true));
    return;
  }
  const byEdge = new Map();
  for (const pos of targets) byEdge.set(edgeCell(pos), [...(byEdge.get(edgeCell(pos)) ?? []), pos]);
  const open = opened.get(svg);
  if (!byEdge.has(open)) {
    opened.delete(svg);
    for (const [cell, positions] of byEdge) {
      const { group, label } = edgeTarget(cell, positions);
      activate(group, label, () => {
        opened.set(svg, cell);
        redraw(svg);
        svg.querySelector(".direction-picker .target")?.focus();
      });
      layer.append(group);
    }
    return;
  }
  // The directions cover the garden: while they are shown they are the only targets.
  const close = () => {
    opened.delete(svg);
    redraw(svg);
    svg.querySelector(`.target-edge[data-edge="${open}"]`)?.focus();
  };
  const side = Math.min(108, Math.max(66, Math.ceil((FINGER + 4) / pixelsPerUnit(svg, GARDEN_SIZE))));
  layer.append(directionPicker(open, byEdge.get(open), {
    sightLines, side, position,
    onChoose(pos) {
      opened.delete(svg);
      onChoose(pos);
    },
    onClose: close,
  }));
}

// What each garden on the page was last drawn with, and the edge whose directions are shown:
// the board redraws itself when a step of its own picking changes, or its size does.
const drawn = new WeakMap();
const opened = new WeakMap();
const watched = new WeakSet();

function redraw(svg) {
  const [position, options] = drawn.get(svg);
  drawGarden(svg, position, options);
}

function watchSize(svg) {
  if (watched.has(svg) || typeof ResizeObserver === "undefined") return;
  watched.add(svg);
  // A phone turned on its side, a window made wider: the way of picking may change.
  new ResizeObserver(() => {
    const [, options] = drawn.get(svg);
    if (!options.onChoose || !options.targets?.length) return;
    const direct = directTargets(svg, GARDEN_SIZE, OWN);
    if (direct !== (svg.dataset.picking === "direct")) redraw(svg);
  }).observe(svg);
}

// How to pick a free position on ``svg`` as it is drawn now, for a page's prompt: its circle
// where a pointer can tell them apart, else (a phone) the edge tile, then the direction.
export function placeHint(svg) {
  return svg?.dataset.picking === "edge"
    ? gettext("tap the edge tile beside it, then the direction the visitor looks")
    : gettext("the small circles around the garden");
}

// Highlights the line of the visitor (or free position) at ``pos`` and rings the tiles it sees.
export function highlight(svg, sightLines, pos) {
  const { line, cells } = pos ? sightOf(sightLines, pos) : { line: [], cells: [] };
  for (const tile of svg.querySelectorAll(".tile")) {
    tile.classList.toggle("in-line", line.includes(tile.dataset.cell));
    tile.classList.toggle("sees", cells.includes(tile.dataset.cell));
  }
}

// The engine's suggested move (post-game analysis) drawn over a garden: a dashed pawn at
// its visitor position looking along its line, a dashed ring on the tile it takes, and the
// tile it plants there (``*``: the taken tile itself) shown small in that cell's corner.
export function markMove(svg, move, seat) {
  const [pos, take] = move.split(" ");
  const [cx, cy, dx, dy] = pawnSpot(pos);
  const colour = SEAT_COLOURS[seat];
  const mark = el("g", { class: "engine-move", "data-move": move });
  mark.append(
    el("line", { class: "arrow", x1: cx + dx * 13, y1: cy + dy * 13, x2: cx + dx * 26, y2: cy + dy * 26,
      stroke: colour, "marker-end": "url(#tip)" }),
    el("circle", { class: "engine-pawn", cx, cy, r: 12, stroke: colour }),
    el("text", { class: "engine-label", x: cx, y: cy + 4, "text-anchor": "middle" },
      pgettext("the engine's suggested move: one letter on its pawn", "E")),
  );
  if (take) {
    const [cell, plant] = take.split("=");
    const [x, y] = cellOrigin(cell);
    mark.append(el("rect", { class: "engine-take", x: x - 4, y: y - 4, width: TILE + 8, height: TILE + 8, rx: 9 }));
    // A take step alone (its plant is decided once the tile is seen) marks only the take.
    if (plant && plant !== "*") mark.append(tileFace(plant, x - 6, y - 6, 26));
    else if (plant === "*") mark.append(el("text", { class: "engine-keep", x: x + 2, y: y + 14 }, "="));
  }
  svg.append(titled(mark, interpolate(gettext("Engine's move: %(move)s"), { move }, true)));
  return mark;
}

// ------------------------------------------------------------------ the replay

// The visitor worth looking at after ``ply``: the one its turn placed.
export function replayFocus(frames, ply) {
  const placing = frames[ply].step === "plant" ? frames[ply - 1] : frames[ply];
  return placing.move ? placing.move.split(" ")[0] : null;
}

// A replay frame's garden (a visitor pointed at shows its line) and every hand under it.
export function replayBoard(frame, { players, selected, onSelect }) {
  const svg = el("svg", { class: "board", role: "img",
    "aria-label": interpolate(gettext("Garden after ply %(ply)s"), { ply: frame.ply }, true) });
  drawGarden(svg, frame.position, {
    sightLines: frame.visitors,
    focus: selected,
    seatName: (seat) => players[seat],
    onVisitor(group, pos) {
      if (pos === selected) group.classList.add("selected");
      group.addEventListener("mouseenter", () => onSelect(pos));
      group.addEventListener("focus", () => onSelect(pos));
    },
  });
  return [svg, handsList(frame, players)];
}

function handsList(frame, players) {
  const list = document.createElement("ul");
  list.className = "replay-hands";
  const pending = frame.position.pending;
  frame.position.hands.forEach((hand, seat) => {
    const item = document.createElement("li");
    item.append(seatSwatch(seat, "seat-dot"));
    // Between a take and its plant the taker holds four tiles, the one just taken among them.
    const holding = pending && hand.length > 3 && pending.took;
    const left = frame.position.unplaced[seat];
    const text = holding
      ? ngettext("%(player)s: hand %(tiles)s (just took %(tile)s) · %(count)s visitor left",
        "%(player)s: hand %(tiles)s (just took %(tile)s) · %(count)s visitors left", left)
      : ngettext("%(player)s: hand %(tiles)s · %(count)s visitor left",
        "%(player)s: hand %(tiles)s · %(count)s visitors left", left);
    const values = { player: players[seat], tiles: hand.join(" "), tile: pending?.took, count: left };
    item.append(document.createTextNode(` ${interpolate(text, values, true)}`));
    list.append(item);
  });
  return list;
}

// ------------------------------------------------------------------ the rules' pictures

// A picture of the rules pages: the position with the line it is about lit and the free
// positions it points out (learn/selectors.py, figure_payload). Returns its note (none).
export function figure(svg, shown, { focus, targets = [] }) {
  drawGarden(svg, shown.position, {
    sightLines: shown.sight_lines,
    focus,
    targets,
    seatName: (seat) => interpolate(gettext("Player %(number)s"), { number: seat + 1 }, true),
  });
  return "";
}

// ------------------------------------------------------------------ a lesson

// The seats' colours, as the pawns' titles name them.
const SEAT_COLOUR_NAMES = [
  pgettext("seat colour", "Red"),
  pgettext("seat colour", "Blue"),
  pgettext("seat colour", "Purple"),
  pgettext("seat colour", "Yellow"),
];

// Fills a translated text's %(name)s placeholders.
const say = (format, values) => interpolate(format, values, true);

// The lesson page's board (static/learn/lesson.js): ``page`` gives the step being played
// (svg, shown(), pick(), choose(pick), open(), step(), sent(), verdict(), send(steps)) and
// its widgets (button, prompt). Returns how the board is drawn, the choices beside it, the
// words while nothing is chosen, the facts above it and the summary after a move.
export function lesson(page) {
  function verdictFocus() {
    // After a move, light up the line of the visitor just placed.
    const visitors = page.shown().position.visitors;
    const placed = Object.keys(visitors).filter((pos) => !(pos in page.step().position.visitors));
    return page.verdict() ? placed[0] ?? null : null;
  }

  return {
    draw() {
      const legal = page.shown().legal_steps;
      const pending = page.shown().position.pending ?? null;
      const places = page.open() && !pending ? [...new Set(legal.map((s) => s.split(" ")[0]))] : [];
      const takeable = new Set(
        page.pick() ? legal.filter((s) => s.startsWith(`${page.pick().place} `)).map((s) => s.split(" ")[1]) : [],
      );
      drawGarden(page.svg, page.shown().position, {
        sightLines: page.shown().sight_lines,
        focus: page.pick()?.place ?? pending?.position ?? verdictFocus(),
        targets: page.pick() ? [page.pick().place] : places,
        chosen: page.pick()?.place ?? null,
        seatName: (seat) => SEAT_COLOUR_NAMES[seat],
        onCell(group, cell) {
          if (page.open() && takeable.has(cell)) {
            group.classList.add("takeable");
            activate(group, say(gettext("Take the face-down tile at %(cell)s"), { cell }), () => page.send([`${page.pick().place} ${cell}`]));
          }
          if (pending?.cell === cell) group.classList.add("chosen", "taken-from");
        },
        onVisitor(group) {
          if (Number(group.dataset.seat) === page.step().seat) group.classList.add("mine");
        },
        onChoose: page.open() ? (place) => page.choose({ place }) : null,
      });
    },
    choices() {
      const legal = page.shown().legal_steps;
      const pending = page.shown().position.pending ?? null;
      const nodes = [];
      if (pending && page.open()) {
        nodes.push(page.prompt(say(gettext("You took the %(tile)s. Plant one of your four tiles at %(cell)s:"), { tile: tileName(pending.took), cell: pending.cell })));
        const tray = document.createElement("div");
        tray.className = "lesson-hand";
        for (const tile of page.shown().position.hands[page.step().seat]) {
          const plant = tile === pending.took ? "=*" : `=${tile}`;
          if (!legal.includes(plant)) continue;
          const node = page.button("", { class: "hand-tile", "data-plant": tile }, () => page.send([...page.sent(), plant]));
          node.append(miniTile(tile, "hand-tile-art"));
          if (tile === pending.took) {
            node.classList.add("taken");
            const badge = document.createElement("span");
            badge.className = "taken-badge";
            badge.setAttribute("aria-hidden", "true");
            badge.textContent = TAKE_WORDS.justTaken;
            node.append(badge);
          }
          const label = tile === pending.took ? gettext("Plant the %(tile)s (just taken)") : gettext("Plant the %(tile)s");
          node.setAttribute("aria-label", say(label, { tile: tileName(tile) }));
          tray.append(node);
        }
        nodes.push(tray);
      } else if (page.pick() && page.open()) {
        const line = sightOf(page.shown().sight_lines, page.pick().place);
        const canTake = legal.some((s) => s.startsWith(`${page.pick().place} `));
        const score = say(
          ngettext("A visitor at %(place)s would score %(points)s now.", "A visitor at %(place)s would score %(points)s now.", line.points),
          { place: page.pick().place, points: line.points },
        );
        nodes.push(page.prompt(canTake ? `${score} ${gettext("Take a face-down tile from its line (dashed), or place only.")}` : score));
        if (legal.includes(page.pick().place)) {
          nodes.push(page.button(TAKE_WORDS.placeOnly, { "data-action": "place-only", class: "button-primary" }, () => page.send([page.pick().place])));
        }
        nodes.push(page.button(gettext("Choose another spot"), { "data-action": "cancel" }, () => page.choose(null)));
      } else if (!page.shown().position.pending) {
        const hand = page.shown().position.hands[page.step().seat];
        const tray = document.createElement("div");
        tray.className = "lesson-hand";
        tray.setAttribute("aria-label", gettext("Your hand"));
        for (const tile of hand) {
          const art = miniTile(tile, "hand-tile-art");
          art.classList.add("hand-tile");
          tray.append(art);
        }
        nodes.push(page.prompt(gettext("Your hand:")), tray);
      }
      return nodes;
    },
    idle: gettext("Choose where a visitor stands around the garden: its line lights up and the points it would score show."),
    facts: () => "",
    // After a move: what the new visitor sees and scores, as the engine counted it.
    summary() {
      const pos = verdictFocus();
      if (!pos) return "";
      const sight = (page.shown().sight_lines ?? []).find((line) => line.position === pos);
      if (!sight) return "";
      const values = { position: pos, points: sight.points };
      if (!sight.seen.length) return say(gettext("Your visitor at %(position)s sees nothing: %(points)s points."), values);
      values.seen = sight.seen.map(({ tile }) => tileName(tile)).join(", ");
      const format = ngettext(
        "Your visitor at %(position)s sees %(seen)s: %(points)s point.",
        "Your visitor at %(position)s sees %(seen)s: %(points)s points.",
        sight.points,
      );
      return say(format, values);
    },
  };
}

// ------------------------------------------------------------------ the game page

// The game page's board (static/games/game.js): ``page`` gives the live state (state.frame,
// state.pick) and the page's actions (legalSteps, myTurn, choose, render, oneTap, sendPick,
// seatName, winnerBadge, $). Returns what the page asks of every game's board: draw,
// chooser (prompt and options), drawHand, drawExtras (what the table shows besides),
// seatDetail and handOf (a player's card), moveLines, waiting (a status while a step is
// open), afterChoose and afterTurn (where keyboard focus goes on).
export function gamePage(page) {
  const { state, svg } = page;

  function sightLines() {
    // What each visitor sees and its points, as the engine counts them (docs/PROTOCOL.md,
    // `sight_lines`; on your turn free positions too, seat null); once over, the reveal's.
    return reveal()?.sight_lines ?? state.frame.sight_lines ?? [];
  }

  // Topiary moves are made in steps (NOTATION.md, "Turn in two steps"): the first decision
  // places the visitor and maybe takes a face-down tile ("c5:S", "c5:S c4"); after a take the
  // server shows the taker the tile, and the plant step names one of the four ("=R3", "=*").
  function pendingTake() {
    // {position, cell, took}: a take waiting for its plant ("took" is "?" unless you took it).
    return state.frame.pending ?? state.frame.position?.pending ?? null;
  }
  function firstSteps() {
    return page.legalSteps().filter((step) => !step.startsWith("=")).map((step) => {
      const [pos, cell] = step.split(" ");
      return { step, pos, cell: cell ?? null };
    });
  }
  function plantSteps() {
    // Each tile of the taker's four and the step that plants it; "=*" is the tile just taken.
    const take = pendingTake();
    const plants = new Map();
    for (const step of page.legalSteps()) {
      if (!step.startsWith("=")) continue;
      const tile = step.slice(1) === "*" ? take.took : step.slice(1);
      if (!plants.has(tile) || step === "=*") plants.set(tile, step);
    }
    return plants;
  }
  function plantedTile(code) {
    return pendingTake()?.took === code;
  }

  function moveLines() {
    // The move list as players read it: a take step and its plant step make one line
    // ("c5:S c4=R3"); a take still waiting for its plant is an open line ("c5:S c4 …").
    const lines = [];
    for (const entry of state.frame.moves) {
      const last = lines[lines.length - 1];
      if (entry.move.startsWith("=") && last?.open) {
        last.move += entry.move;
        last.open = false;
        last.took ??= entry.took ?? null;
      } else {
        lines.push({ seat: entry.seat, move: entry.move, took: entry.took ?? null,
          open: /^\S+:\S+ [a-e][1-5]$/.test(entry.move) });
      }
    }
    return lines;
  }
  function lastPlay() {
    // The latest line that placed a visitor: {pos, cell (taken), open}.
    const line = moveLines().at(-1);
    if (!line || !line.move.includes(":")) return null;
    const [pos, take] = line.move.split(" ");
    return { pos, cell: take ? take.slice(0, 2) : null, open: line.open };
  }

  function shownPosition() {
    // Once the game is over the page shows the reveal: every hand and face-down tile.
    return reveal()?.position ?? state.frame.position;
  }

  function drawTopiary() {
    const position = shownPosition();
    // A 2-player game that ended mid-take shows the revealed position from before that take.
    const take = reveal() ? null : pendingTake();
    const planting = Boolean(take) && page.myTurn();
    const firsts = page.myTurn() && position.phase === "play" && !take ? firstSteps() : [];
    const takeable = new Set(firsts.filter((m) => m.pos === state.pick.pos && m.cell).map((m) => m.cell));
    const latest = lastPlay();
    const lines = sightLines();
    drawGarden(svg, position, {
      sightLines: lines,
      focus: state.pick.pos ?? take?.position ?? null,
      // The tile chosen to plant, shown where it will go until it is confirmed.
      preview: planting && state.pick.plant ? { cell: take.cell, code: state.pick.plant } : null,
      targets: !state.pick.cell && !state.pick.move ? [...new Set(firsts.map((m) => m.pos))] : [],
      chosen: state.pick.pos,
      seatName: page.seatName,
      onCell(group, cell) {
        if (state.pick.cell === cell || take?.cell === cell) group.classList.add("chosen");
        if (take?.cell === cell) group.classList.add("taken-from");
        if (latest && !latest.open && latest.cell === cell) group.classList.add("planted");
        if (!state.pick.cell && takeable.has(cell)) {
          group.classList.add("takeable");
          activate(group, WORDS.takeAt(cell), () => page.choose({ cell, move: `${state.pick.pos} ${cell}` }));
        }
      },
      onVisitor(group, pos) {
        if (latest?.pos === pos) group.classList.add("latest");
        group.addEventListener("mouseenter", () => lightUp(pos));
        group.addEventListener("focus", () => lightUp(pos));
        group.addEventListener("mouseleave", () => lightUp(state.pick.pos ?? take?.position));
        group.addEventListener("blur", () => lightUp(state.pick.pos ?? take?.position));
      },
      onChoose: (pos) => page.choose({ pos }),
      onTarget(group, pos) {
        group.addEventListener("mouseenter", () => lightUp(pos));
        group.addEventListener("mouseleave", () => lightUp(state.pick.pos));
      },
    });
  }

  function lightUp(pos) {
    highlight(svg, sightLines(), pos);
  }

  const WORDS = TAKE_WORDS;

  function topiaryChooser() {
    const position = state.frame.position;
    const options = [];
    if (position.phase === "draft") {
      const kept = state.pick.keep ?? [];
      const prompt = interpolate(gettext("Choose the three tiles to keep (%(count)s of 3 chosen)"),
        { count: kept.length }, true);
      return { prompt, options };
    }
    const take = pendingTake();
    if (take) {
      if (!state.pick.plant) return { prompt: WORDS.plantPrompt(take.took, take.cell), options };
      const prompt = interpolate(gettext("Plant %(tile)s face up at %(cell)s?"),
        { tile: tileName(state.pick.plant), cell: take.cell }, true);
      return { prompt, options };
    }
    const moves = firstSteps();
    if (!state.pick.pos) return { prompt: gettext("Choose where your visitor stands"), options };
    // Said before Confirm, as the lessons do: what the chosen position scores now.
    const sees = WORDS.wouldSee(state.pick.pos, sightOf(sightLines(), state.pick.pos).points);
    const placeOnly = moves.some((m) => m.pos === state.pick.pos && !m.cell);
    const canTake = moves.some((m) => m.pos === state.pick.pos && m.cell);
    if (!state.pick.cell && placeOnly) options.push([WORDS.placeOnly, { move: state.pick.pos }]);
    if (state.pick.cell) {
      const prompt = interpolate(
        gettext("Take the face-down tile at %(cell)s? You will see it, then choose the tile to plant."),
        { cell: state.pick.cell }, true);
      return { prompt: `${sees} ${prompt}`, options };
    }
    if (state.pick.move) {
      const prompt = interpolate(gettext("Place your visitor at %(position)s and take nothing?"),
        { position: state.pick.pos }, true);
      return { prompt: `${sees} ${prompt}`, options };
    }
    const what = canTake ? (placeOnly ? WORDS.takeOrPlace : WORDS.mustTake) : WORDS.nothingToTake;
    return { prompt: `${sees} ${what}`, options };
  }

  function draftPool() {
    // In a draft, the tiles to choose from: your hand and what was passed to you.
    const received = state.frame.position.draft?.received?.[state.frame.you] ?? [];
    return [...state.frame.position.hands[state.frame.you], ...received];
  }

  function toggleKeep(code) {
    const kept = state.pick.keep ?? [];
    const keep = kept.includes(code) ? kept.filter((tile) => tile !== code) : [...kept, code].slice(-3);
    const wanted = [...keep].sort().join(" ");
    const move = page.legalSteps().find((m) => m.split(" ").slice(1).sort().join(" ") === wanted);
    state.pick = { keep, move: keep.length === 3 ? move : undefined };
    if (page.oneTap() && state.pick.move) page.sendPick();
    else page.render();
  }

  // The ply at which the taken tile was last turned over in the tray: it animates once, not on every redraw.
  let turnedOverAt = null;

  function drawHand() {
    const hand = state.frame.position && state.frame.you !== null ? state.frame.position.hands[state.frame.you] : null;
    page.$("hand").hidden = !hand || Boolean(reveal());
    if (!hand) return;
    if (state.frame.position.phase === "draft" && page.myTurn()) {
      page.$("hand-title").textContent = gettext("Your hand and the tiles passed to you");
      page.$("hand-tiles").replaceChildren(...draftPool().map((code) => {
        const button = handTile(code);
        button.disabled = false;
        button.classList.add("offered");
        button.setAttribute("aria-pressed", String((state.pick.keep ?? []).includes(code)));
        button.addEventListener("click", () => toggleKeep(code));
        return button;
      }));
      return;
    }
    const take = pendingTake();
    const plants = take && page.myTurn() ? plantSteps() : new Map();
    page.$("hand-title").textContent = take && state.frame.to_move === state.frame.you
      ? gettext("Your hand: four tiles until you plant one")
      : gettext("Your hand");
    page.$("hand-tiles").replaceChildren(...hand.map((code) => {
      const button = handTile(code, plants.has(code) ? WORDS.plant(code) : tileName(code));
      button.disabled = !plants.has(code);
      button.classList.toggle("offered", plants.has(code));
      button.setAttribute("aria-pressed", String(state.pick.plant === code));
      if (take && state.frame.to_move === state.frame.you && plantedTile(code)) {
        button.classList.add("taken");
        if (turnedOverAt !== state.frame.ply) {
          button.classList.add("turning");
          turnedOverAt = state.frame.ply;
        }
        const badge = document.createElement("span");
        badge.className = "taken-badge";
        badge.textContent = WORDS.justTaken;
        button.append(badge);
        button.setAttribute("aria-label", WORDS.withJustTaken(button.getAttribute("aria-label")));
      }
      button.addEventListener("click", () => page.choose({ move: plants.get(code), plant: code }));
      return button;
    }));
  }

  function handTile(code, label = tileName(code)) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "hand-tile";
    button.dataset.tile = code;
    button.append(miniTile(code, "hand-tile-art"));
    button.setAttribute("aria-label", label);
    return button;
  }

  function reveal() {
    // The end-of-game reveal (docs/PROTOCOL.md, "The end: everything revealed"): the full
    // position, every visitor's sight line and the count per seat.
    if (state.frame.status !== "finished" || !state.frame.final?.position) return null;
    return state.frame.final;
  }

  function drawRemovedType() {
    const box = page.$("removed-type");
    const type = state.frame.position?.removed_type;
    box.hidden = !type;
    if (!type) return;
    const { name } = TYPES[type];
    const tiles = document.createElement("span");
    tiles.className = "open-hand";
    tiles.append(...[1, 2, 3, 4, 5].map((value) => miniTile(`${type}${value}`)));
    box.replaceChildren(interpolate(gettext("Out of this game: all five %(type)s tiles"), { type: name }, true), " ", tiles);
    box.dataset.type = type;
  }

  function cellText(text, className) {
    const td = document.createElement("td");
    if (className) td.className = className;
    td.textContent = text;
    return td;
  }

  function drawFinalCount() {
    const box = page.$("final-count");
    const shown = reveal();
    box.hidden = !shown;
    if (!shown) return;
    const position = shown.position;
    const lines = shown.sight_lines;
    const scores = shown.scores ?? state.frame.result?.scores ?? [];
    const winners = state.frame.result?.winners ?? [];
    const totals = page.$("final-totals");
    totals.replaceChildren(...scores.map((entry) => {
      const row = document.createElement("tr");
      row.dataset.seat = entry.seat;
      if (winners.includes(entry.seat)) row.classList.add("winner");
      const name = document.createElement("td");
      const swatch = seatSwatch(entry.seat);
      name.append(swatch, ` ${page.seatName(entry.seat)}`);
      if (winners.includes(entry.seat)) name.append(" ", page.winnerBadge());
      const hand = cellText(String(entry.hand), "num hand-points");
      const tiles = document.createElement("span");
      tiles.className = "open-hand";
      for (const code of position.hands[entry.seat] ?? []) {
        const tile = miniTile(code);
        // A hand tile scores when its owner's visitors see a larger tile of its type (the engine's count).
        const scoring = Boolean(shown.scoring_hand_tiles?.[entry.seat]?.includes(code));
        tile.classList.toggle("scores", scoring);
        const label = scoring
          ? interpolate(gettext("%(tile)s: scores %(points)s"), { tile: tileName(code), points: code[1] }, true)
          : interpolate(gettext("%(tile)s: scores nothing"), { tile: tileName(code) }, true);
        tile.setAttribute("aria-label", label);
        tiles.append(tile);
      }
      hand.prepend(tiles, " ");
      row.append(name, cellText(String(entry.visitors), "num"), cellText(String(entry.bonus), "num"), hand,
        cellText(String(entry.total), "num total"));
      return row;
    }));
    const byVisitor = page.$("final-visitors");
    const ordered = [...lines].sort((a, b) => a.seat - b.seat || b.points - a.points);
    byVisitor.replaceChildren(...ordered.map((line) => {
      const row = document.createElement("tr");
      row.dataset.position = line.position;
      row.tabIndex = 0;
      const who = document.createElement("td");
      const swatch = seatSwatch(line.seat);
      who.append(swatch, ` ${page.seatName(line.seat)}`);
      const seen = line.seen.map(({ tile }) => tile).join(" ") || pgettext("a visitor sees", "nothing");
      row.append(who, cellText(line.position), cellText(seen), cellText(String(line.points), "num"));
      // Pointing at a row shows that visitor's line on the board.
      row.addEventListener("mouseenter", () => lightUp(line.position));
      row.addEventListener("focus", () => lightUp(line.position));
      row.addEventListener("mouseleave", () => lightUp(null));
      row.addEventListener("blur", () => lightUp(null));
      return row;
    }));
  }

  // A seat's visitors left and points as they stand, while the game is played.
  function seatDetail(seat) {
    const position = state.frame.position;
    if (!position) return [];
    const left = position.unplaced[seat.index];
    const parts = [interpolate(ngettext("%(count)s visitor left", "%(count)s visitors left", left), { count: left }, true)];
    const score = state.frame.score?.scores?.[seat.index];
    if (score) {
      const points = score.hand === null
        ? ngettext("%(count)s point + hand", "%(count)s points + hand", score.total)
        : ngettext("%(count)s point now", "%(count)s points now", score.total);
      parts.push(interpolate(points, { count: score.total }, true));
    }
    return parts;
  }

  // A seat's hand on its card: laid open once the game is over, as at the table when the
  // scores are counted; else the backs of the tiles the viewer cannot see.
  function handOf(seat) {
    const hand = shownPosition()?.hands?.[seat.index];
    if (hand && reveal()) {
      const tiles = document.createElement("span");
      tiles.className = "open-hand";
      tiles.dataset.seat = seat.index;
      tiles.append(...hand.map((code) => miniTile(code)));
      return tiles;
    }
    if (!hand || seat.index === state.frame.you) return null;
    const backs = document.createElement("span");
    backs.className = "backs";
    backs.title = interpolate(ngettext("Their hand: %(count)s tile you cannot see",
      "Their hand: %(count)s tiles you cannot see", hand.length), { count: hand.length }, true);
    backs.append(...hand.map(() => document.createElement("span")));
    return backs;
  }

  // Whose take waits for its plant, said in the status line.
  function waiting() {
    const take = pendingTake();
    if (!take) return null;
    return interpolate(gettext("%(player)s took %(cell)s, choosing a tile to plant…"),
      { player: page.seatName(state.frame.to_move), cell: take.cell }, true);
  }

  return {
    draw: drawTopiary,
    chooser: topiaryChooser,
    drawHand,
    drawExtras() {
      drawRemovedType();
      drawFinalCount();
    },
    seatDetail,
    handOf,
    moveLines: () => moveLines(),
    waiting,
    // Keyboard users go on from what they chose: from a position to the first tile it may
    // take (or "place only"), from a tile to take to that tile.
    afterChoose(choice) {
      if (choice.cell) svg.querySelector(`[data-cell="${choice.cell}"]`)?.focus?.();
      else if (choice.pos) (svg.querySelector(".tile.takeable") ?? page.$("options").querySelector("button"))?.focus?.();
    },
    // The Confirm button that sent the take is gone: keyboard users go on from the tile taken.
    afterTurn() {
      if (!pendingTake() || !page.myTurn()) return;
      const lost = !document.activeElement || document.activeElement === document.body;
      if (lost) document.querySelector("#hand-tiles .hand-tile.taken")?.focus();
    },
  };
}
