// Wizards' Garden's board object (found by the game's name through boards.js): the board drawn
// the same on every page, 4x4 planting beds, white (Dovetail) and black (Ravenclaw) seeds,
// the basket and the Wizard's Staff, its coordinates, how a move is picked, its score columns,
// and what each page asks of it: gamePage, lesson, figure, replayBoard (docs/subsystems/front-end.md,
// "Boards"; /shared/UI.md).
/* global gettext, ngettext, pgettext, interpolate */

import { activate, coordinates, el, seatNumber, titled } from "./common.js";

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
  let basket = interpolate(ngettext("Basket: %(count)s seed", "Basket: %(count)s seeds", position.basket),
    { count: position.basket }, true);
  // The set-up phase (the first four seeds) is named on the board: its seeds flip nothing.
  if (position.phase === "setup") {
    basket = interpolate(gettext("%(basket)s · Set-up: nothing flips"), { basket }, true);
  }
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

// ------------------------------------------------------------------ the replay

// Nothing on this board is pointed at after a move: its flips and harvest show by themselves.
export function replayFocus() {
  return null;
}

// The lines a harvest can take: rows, columns and the long diagonals, named by their end
// cells as NOTATION.md writes them (a1-d1, a1-a4, a1-d4, a4-d1).
const HARVEST_LINES = [1, 2, 3, 4].flatMap((n) => [
  [..."abcd"].map((file) => `${file}${n}`),
  [1, 2, 3, 4].map((rank) => `${"abcd"[n - 1]}${rank}`),
]).concat([[..."abcd"].map((file, i) => `${file}${i + 1}`), [..."abcd"].map((file, i) => `${file}${4 - i}`)]);

// The four cells of a line named by its end cells (``a1-d4``), a1-d4 and a4-d1 included.
function lineCells(name) {
  return HARVEST_LINES.find((line) => `${line[0]}-${line[3]}` === name) ?? [];
}

function seedOn(board, cell) {
  return board[4 - Number(cell[1])]["abcd".indexOf(cell[0])];
}

// The lines this ply harvested: full after the planting (or planted now), empty after the move.
function harvestedLines(frame, before) {
  if (!before?.position.board || !frame.move) return [];
  const planted = frame.move.slice(0, 2);
  return HARVEST_LINES.filter((line) => line.every((cell) => seedOn(frame.position.board, cell) === "."
    && (cell === planted || seedOn(before.position.board, cell) !== ".")));
}

// What a move did beyond planting, in a move list's words, from its facts as the engine
// states them (docs/PROTOCOL.md, ``moves``' ``facts``): a set-up seed flips nothing; a harvest
// takes its lines, and a black one may take the Wizard's Staff.
export function factsNote(facts) {
  if (!facts) return null;
  if (facts.setup) return gettext("set-up: flips nothing");
  if (!facts.harvest?.length) return null;
  const names = facts.harvest.map((entry) => entry.line).join(", ");
  const harvest = interpolate(ngettext("harvests the line %(lines)s", "harvests the lines %(lines)s", facts.harvest.length),
    { lines: names }, true);
  return facts.staff ? interpolate(gettext("%(harvest)s, takes the Wizard's Staff"), { harvest }, true) : harvest;
}

// The same note for a replay's ply, whose frames carry positions, not facts: what the board
// before and after the move shows.
export function moveNote(frame, before) {
  if (!before) return null;
  if (before.position.phase === "setup") return factsNote({ setup: true });
  const lines = harvestedLines(frame, before);
  return factsNote({
    harvest: lines.map((line) => ({ line: `${line[0]}-${line[3]}` })),
    staff: frame.position.staff === frame.mover && before.position.staff !== frame.mover,
  });
}

// A replay frame's board, with the board before this ply's move so its flips and harvest show
// as on the game page (the beds a harvest emptied stay ringed while the ply is shown); the
// basket and the Wizard's Staff are drawn under it.
export function replayBoard(frame, { players, previous }) {
  const svg = el("svg", { class: "board", role: "img",
    "aria-label": interpolate(gettext("Board after ply %(ply)s"), { ply: frame.ply }, true) });
  const harvested = new Set(harvestedLines(frame, previous).flat());
  drawBoard(svg, frame.position, {
    previous: previous?.position.board,
    seatName: (seat) => players[seat],
    onCell(group, cell) {
      if (harvested.has(cell)) group.classList.add("harvested");
    },
  });
  return [svg];
}

// ------------------------------------------------------------------ the rules' pictures

// A picture of the rules pages, with what flipped and what was harvested since ``previous``;
// returns its note: the flowers, which the game is scored by.
export function figure(svg, shown, figure, previous) {
  drawBoard(svg, shown.position, {
    previous: previous?.position.board ?? null,
    // The board says "Wizard's Staff: with <name>".
    seatName: (seat) => interpolate(pgettext("staff holder", "player %(number)s"), { number: seat + 1 }, true),
  });
  const flowers = shown.position.harvested.map(({ W, B }, seat) => {
    const values = { number: seat + 1, flowers: W + B, black: B };
    return B ? interpolate(gettext("player %(number)s: %(flowers)s (%(black)s black)"), values, true)
      : interpolate(gettext("player %(number)s: %(flowers)s"), values, true);
  });
  return interpolate(gettext("Flowers: %(list)s"), { list: flowers.join(" · ") }, true);
}

// ------------------------------------------------------------------ a lesson

// Fills a translated text's %(name)s placeholders.
const say = (format, values) => interpolate(format, values, true);

// The legal moves as their parts: the bed, the side up and the lines a harvest names.
export function parseMoves(legal) {
  return legal.map((move) => {
    const [, cell, side, lines] = move.match(/^([a-d][1-4])([WB])(?:\/(.*))?$/);
    return { move, cell, side, lines };
  });
}

// The words for planting a seed side up, with the harvest it makes.
export function sideLabel({ side, lines }) {
  const white = side === "W";
  if (!lines) return white ? gettext("White side up (Dovetail)") : gettext("Black side up (Ravenclaw)");
  return say(white ? gettext("White side up (Dovetail), harvest %(lines)s")
    : gettext("Black side up (Ravenclaw), harvest %(lines)s"), { lines });
}

// The lesson page's board (static/learn/lesson.js; see topiary.js's ``lesson`` for ``page``).
export function lesson(page) {
  const wizardsMoves = () => parseMoves(page.shown().legal_steps);
  return {
    draw() {
      const moves = page.open() ? wizardsMoves() : [];
      const cells = new Set(moves.map((m) => m.cell));
      drawBoard(page.svg, page.shown().position, {
        previous: page.verdict() ? page.step().position.board : null,
        // The board says "Wizard's Staff: with <name>".
        seatName: (seat) => (seat === page.step().seat ? pgettext("staff holder", "you") : pgettext("staff holder", "your opponent")),
        onCell(group, cell, seed, bed) {
          if (!cells.has(cell)) return;
          bed.classList.add(page.pick()?.cell === cell ? "chosen" : "legal");
          activate(group, say(gettext("Plant on %(cell)s"), { cell }), () => page.choose({ cell }));
        },
      });
    },
    choices() {
      if (!page.pick() || !page.open()) return [];
      const nodes = [page.prompt(say(gettext("Which side up on %(cell)s?"), { cell: page.pick().cell }))];
      for (const m of wizardsMoves().filter((x) => x.cell === page.pick().cell)) {
        nodes.push(page.button(sideLabel(m), { "data-move": m.move }, () => page.send([m.move])));
      }
      nodes.push(page.button(gettext("Choose another bed"), { "data-action": "cancel" }, () => page.choose(null)));
      return nodes;
    },
    idle: gettext("Choose a highlighted bed (next to a seed) to plant on."),
    facts() {
      const [mine, theirs] = [page.step().seat, 1 - page.step().seat].map((seat) => {
        const { W, B } = page.shown().position.harvested[seat];
        return W + B;
      });
      return say(gettext("Flowers: you %(mine)s, your opponent %(theirs)s."), { mine, theirs });
    },
    summary: () => "",
  };
}

// ------------------------------------------------------------------ the game page

// The game page's board (static/games/game.js): ``page`` gives the live state (state.frame,
// state.pick, state.previousBoard) and the page's actions (myTurn, choose, seatName,
// playPrompt). Returns what the page asks of every game's board (see topiary.js).
export function gamePage(page) {
  const { state, svg } = page;
  const moves = () => (page.myTurn() ? parseMoves(state.frame.legal_moves) : []);
  // The beds the latest move's harvest emptied, while that move is the news (``previousBoard``).
  const harvested = () => {
    const facts = state.previousBoard ? state.frame.moves.at(-1)?.facts : null;
    return new Set((facts?.harvest ?? []).flatMap(({ line }) => lineCells(line)));
  };
  return {
    draw() {
      const legal = new Set(moves().map((m) => m.cell));
      const emptied = harvested();
      drawBoard(svg, state.frame.position, {
        previous: state.previousBoard,
        seatName: page.seatName,
        onCell(group, cell, seed, bed) {
          if (emptied.has(cell)) group.classList.add("harvested");
          if (state.pick.cell === cell) bed.classList.add("chosen");
          if (!legal.has(cell) || state.pick.move) return;
          bed.classList.add("legal");
          activate(group, say(gettext("Plant on %(cell)s"), { cell }), () => page.choose({ cell }));
        },
      });
    },
    chooser() {
      const { pick } = state;
      if (!pick.cell) return { prompt: gettext("Choose a bed to plant"), options: [] };
      if (pick.move) return { prompt: page.playPrompt(pick.move), options: [] };
      const options = moves().filter((m) => m.cell === pick.cell).map((m) => [sideLabel(m), { move: m.move }]);
      return { prompt: say(gettext("Which side up on %(cell)s?"), { cell: pick.cell }), options };
    },
    // No hand, no tiles out of the game, no count to reveal: the page's boxes for them stay hidden.
    drawHand() {},
    drawExtras() {},
    // A seat's flowers and the Staff, while the game is played.
    seatDetail(seat) {
      const position = state.frame.position;
      if (!position) return [];
      const flowers = position.harvested[seat.index];
      const parts = [say(gettext("flowers: %(white)s white, %(black)s black"), { white: flowers.W, black: flowers.B })];
      if (position.staff === seat.index) parts.push(gettext("holds the Wizard's Staff"));
      return parts;
    },
    handOf: () => null,
    moveLines: () => state.frame.moves.map((entry) => ({
      seat: entry.seat, move: entry.move, took: null, open: false, note: factsNote(entry.facts),
    })),
    waiting: () => null,
    afterChoose() {},
    afterTurn() {},
  };
}

// ------------------------------------------------------------------ the puzzle page

// The training puzzle's board (static/puzzles/puzzle.js): the solver picks a bed, then the side
// up, and the page sends the planting; the server plays the opponent's best reply. ``page``
// gives the position now and before the latest planting (page.current(), page.previous()),
// whether a planting may be chosen now (page.open()), the solver's seat and page.play(move).
// Returns what the puzzle page asks of a board that draws its own puzzle.
export function puzzleBoard(page) {
  let bed = null;
  const moves = () => (page.open() ? parseMoves(page.current().legal) : []);
  const board = {
    draw(svg) {
      const legal = new Set(moves().map((m) => m.cell));
      drawBoard(svg, page.current().position, {
        previous: page.previous()?.board ?? null,
        seatName: (seat) => (seat === page.seat ? pgettext("staff holder", "you") : pgettext("staff holder", "your opponent")),
        onCell(group, cell, seed, rect) {
          if (bed === cell) rect.classList.add("chosen");
          if (!legal.has(cell)) return;
          rect.classList.add("legal");
          activate(group, say(gettext("Plant on %(cell)s"), { cell }), () => {
            bed = cell;
            page.changed();
          });
        },
      });
    },
    // The buttons under the board: [label, attributes, action].
    choices() {
      if (!bed) return [];
      const sides = moves().filter((m) => m.cell === bed)
        .map((m) => [sideLabel(m), { "data-move": m.move }, () => {
          bed = null;
          page.play(m.move);
        }]);
      return [...sides, [gettext("Choose another bed"), { "data-action": "cancel" }, () => board.cancel()]];
    },
    prompt() {
      return bed ? say(gettext("Which side up on %(cell)s?"), { cell: bed }) : gettext("Choose a highlighted bed (next to a seed) to plant on.");
    },
    // Esc and Cancel: false when there was nothing to step back from.
    cancel() {
      if (!bed) return false;
      bed = null;
      page.changed();
      return true;
    },
    // What the solver's score stands at: the flowers and the Staff.
    facts() {
      const { harvested, staff } = page.current().position;
      const [mine, theirs] = [page.seat, 1 - page.seat].map((seat) => harvested[seat].W + harvested[seat].B);
      const flowers = say(gettext("Flowers: you %(mine)s, your opponent %(theirs)s."), { mine, theirs });
      if (staff === null) return flowers;
      return `${flowers} ${staff === page.seat ? gettext("You hold the Wizard's Staff.") : gettext("Your opponent holds the Wizard's Staff.")}`;
    },
    // The engine's reply, in the moves list.
    replyLabel: (move) => say(gettext("%(move)s (your opponent's reply)"), { move }),
  };
  return board;
}
