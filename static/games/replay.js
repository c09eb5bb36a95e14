// Replay of a finished game: step through every ply with the whole deal revealed.
// The server replayed the record through the engine and embedded every frame
// (full position, score, sight lines) as JSON; this module only draws them, with the
// boards of static/board/ (the same drawing as the game page and the puzzle).
// Its words come from Django's JavaScript catalogue (base.html); notation is not translated.
/* global gettext, ngettext, pgettext, interpolate */

import { el, seatSwatch } from "../board/common.js";
import * as topiary from "../board/topiary.js";
import { drawBoard as drawWizardsBoard } from "../board/wizards_garden.js";

function html(name, attrs = {}, text) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

// ---------------------------------------------------------------- Topiary

function topiaryBoard(frame, players, selectedPosition, onSelect) {
  const svg = el("svg", { class: "board", role: "img",
    "aria-label": interpolate(gettext("Garden after ply %(ply)s"), { ply: frame.ply }, true) });
  topiary.drawGarden(svg, frame.position, {
    sightLines: frame.visitors,
    focus: selectedPosition,
    seatName: (seat) => players[seat],
    onVisitor(group, pos) {
      if (pos === selectedPosition) group.classList.add("selected");
      group.addEventListener("mouseenter", () => onSelect(pos));
      group.addEventListener("focus", () => onSelect(pos));
    },
  });
  return svg;
}

function handsList(frame, players) {
  const list = html("ul", { class: "replay-hands" });
  const pending = frame.position.pending;
  frame.position.hands.forEach((hand, seat) => {
    const item = html("li");
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

// ---------------------------------------------------------------- Wizards' Garden

// The lines a harvest can take: rows, columns and the long diagonals, named by their end
// cells as NOTATION.md writes them (a1-d1, a1-a4, a1-d4, a4-d1).
const GARDEN_LINES = [1, 2, 3, 4].flatMap((n) => [
  [..."abcd"].map((file) => `${file}${n}`),
  [1, 2, 3, 4].map((rank) => `${"abcd"[n - 1]}${rank}`),
]).concat([[..."abcd"].map((file, i) => `${file}${i + 1}`), [..."abcd"].map((file, i) => `${file}${4 - i}`)]);

function seedOn(board, cell) {
  return board[4 - Number(cell[1])]["abcd".indexOf(cell[0])];
}

// The lines this ply harvested: full after the planting (or planted now), empty after the move.
function harvestedLines(frame, before) {
  if (!before?.position.board || !frame.move) return [];
  const planted = frame.move.slice(0, 2);
  return GARDEN_LINES.filter((line) => line.every((cell) => seedOn(frame.position.board, cell) === "."
    && (cell === planted || seedOn(before.position.board, cell) !== ".")));
}

// What a move did beyond planting, for the move list: a set-up seed flips nothing; a harvest
// takes its lines, and a black one the Wizard's Staff.
function gardenNote(frame, before) {
  if (before.position.phase === "setup") return gettext("set-up: flips nothing");
  const lines = harvestedLines(frame, before);
  if (!lines.length) return null;
  const names = lines.map((line) => `${line[0]}-${line[3]}`).join(", ");
  const harvest = interpolate(ngettext("harvests the line %(lines)s", "harvests the lines %(lines)s", lines.length),
    { lines: names }, true);
  const staff = frame.position.staff === frame.mover && before.position.staff !== frame.mover;
  return staff ? interpolate(gettext("%(harvest)s, takes the Wizard's Staff"), { harvest }, true) : harvest;
}

function gardenBoard(frame, players, before) {
  const svg = el("svg", { class: "board", role: "img",
    "aria-label": interpolate(gettext("Board after ply %(ply)s"), { ply: frame.ply }, true) });
  const harvested = new Set(harvestedLines(frame, before).flat());
  // The board before this ply's move, so its flips and harvest show as on the game page.
  drawWizardsBoard(svg, frame.position, {
    previous: before?.position.board,
    seatName: (seat) => players[seat],
    // The beds a harvest emptied stay marked while this ply is shown.
    onCell(group, cell) {
      if (harvested.has(cell)) group.classList.add("harvested");
    },
  });
  return svg;
}

// Each game's notes beside its moves in the list (a game without an entry has none).
const MOVE_NOTES = { wizards_garden: gardenNote };

// ---------------------------------------------------------------- the page

// Each game's score columns at a ply (a game without an entry shows each seat's total).
const SCORE_COLUMNS = {
  topiary: [[gettext("Visitors"), "visitors"], [pgettext("score column", "Bonus"), "bonus"],
    [pgettext("score column", "Hand"), "hand"], [pgettext("score column", "Total"), "total"]],
  wizards_garden: [[pgettext("score column: white flowers", "W"), "W"],
    [pgettext("score column: black flowers", "B"), "B"], [gettext("Flowers"), "total"]],
};

function scoreTable(frame, players, game) {
  const table = html("table", { class: "table replay-score" });
  const columns = SCORE_COLUMNS[game] ?? [[pgettext("score column", "Total"), "total"]];
  const head = [pgettext("score column", "Player"), ...columns.map(([label]) => label)];
  const thead = html("thead");
  const headRow = html("tr");
  for (const label of head) headRow.append(html("th", { scope: "col" }, label));
  thead.append(headRow);
  const tbody = html("tbody");
  for (const entry of frame.score.scores) {
    const row = html("tr");
    const values = columns.map(([, key]) => entry[key]);
    const name = html("td");
    name.append(seatSwatch(entry.seat, "seat-dot"));
    name.append(document.createTextNode(` ${players[entry.seat]}`));
    row.append(name);
    for (const value of values) row.append(html("td", { class: "num" }, String(value)));
    tbody.append(row);
  }
  table.append(thead, tbody);
  return table;
}

function start() {
  const root = document.getElementById("replay");
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const { frames, players, game } = data;
  const last = frames.length - 1;
  const board = document.getElementById("replay-board");
  const plyLabel = document.getElementById("replay-ply");
  const scoreBox = document.getElementById("replay-score");
  const visitorList = document.getElementById("replay-visitors");
  const moveList = document.getElementById("replay-moves");
  let ply = 0;
  let selected = null;

  let turn = 0;
  frames.slice(1).forEach((frame) => {
    const item = html("li");
    // Numbered by turn, as the record numbers its moves: a plant belongs to its take's turn.
    if (frame.step !== "plant") item.value = ++turn;
    // A take and its plant are two steps, listed one under the other.
    const button = html("button", { type: "button", class: "link-button", "data-ply": frame.ply }, `${players[frame.mover]}: ${frame.move}`);
    button.addEventListener("click", () => show(frame.ply));
    if (frame.step) item.classList.add(`step-${frame.step}`);
    item.append(button);
    const note = MOVE_NOTES[game]?.(frame, frames[frame.ply - 1]);
    if (note) item.append(" ", html("span", { class: "move-note" }, note));
    moveList.append(item);
  });

  // Highlighting a visitor redraws the board only, so the focused list entry keeps focus.
  function select(position) {
    if (position === selected) return;
    selected = position;
    drawBoard();
    for (const item of visitorList.children) {
      item.classList.toggle("selected", item.dataset.position === selected);
    }
  }

  // Each game's board; a game without an entry shows its position as the engine writes it.
  const boards = {
    topiary: (frame) => [topiaryBoard(frame, players, selected, select), handsList(frame, players)],
    // The basket and the Wizard's Staff are drawn under the board, as on the game page.
    wizards_garden: (frame) => [gardenBoard(frame, players, frames[ply - 1])],
  };
  const positionText = (frame) => [html("pre", {}, JSON.stringify(frame.position, null, 1))];

  function drawBoard() {
    board.replaceChildren(...(boards[game] ?? positionText)(frames[ply]));
    // Other modules of the page (the analysis) add their marks to the board drawn.
    board.dispatchEvent(new CustomEvent("replay:drawn", { detail: { ply } }));
  }

  function draw() {
    const frame = frames[ply];
    drawBoard();
    if (visitorList) {
      visitorList.replaceChildren();
      for (const visitor of frame.visitors) {
        const item = html("li", { "data-position": visitor.position, class: visitor.position === selected ? "selected" : "" });
        const button = html("button", { type: "button", class: "link-button" });
        button.append(seatSwatch(visitor.seat, "seat-dot"));
        const sees = visitor.seen.length
          ? visitor.seen.map((s) => `${s.tile} (${s.cell})`).join(", ")
          : pgettext("a visitor sees", "nothing");
        const text = ngettext("%(position)s · %(player)s · sees %(tiles)s · %(count)s point",
          "%(position)s · %(player)s · sees %(tiles)s · %(count)s points", visitor.points);
        const values = { position: visitor.position, player: players[visitor.seat], tiles: sees, count: visitor.points };
        button.append(document.createTextNode(` ${interpolate(text, values, true)}`));
        button.addEventListener("mouseenter", () => select(visitor.position));
        button.addEventListener("focus", () => select(visitor.position));
        item.append(button);
        visitorList.append(item);
      }
    }
  }

  function show(next) {
    ply = Math.max(0, Math.min(last, next));
    const frame = frames[ply];
    // The visitor just placed is the one worth looking at.
    const placing = frame.step === "plant" ? frames[ply - 1] : frame;
    selected = placing.move && game === "topiary" ? placing.move.split(" ")[0] : null;
    draw();
    plyLabel.textContent = frame.move
      ? interpolate(gettext("Ply %(ply)s of %(last)s · %(player)s: %(move)s"),
        { ply, last, player: players[frame.mover], move: frame.move }, true)
      : interpolate(gettext("Ply %(ply)s of %(last)s · the deal"), { ply, last }, true);
    const wrap = html("div", { class: "table-wrap" });
    wrap.append(scoreTable(frame, players, game));
    scoreBox.replaceChildren(wrap);
    for (const button of moveList.querySelectorAll("button")) {
      const current = Number(button.dataset.ply) === ply;
      button.toggleAttribute("aria-current", current);
      button.closest("li").classList.toggle("current", current);
    }
    root.dataset.ply = String(ply);
    root.querySelector('[data-step="first"]').disabled = ply === 0;
    root.querySelector('[data-step="back"]').disabled = ply === 0;
    root.querySelector('[data-step="next"]').disabled = ply === last;
    root.querySelector('[data-step="last"]').disabled = ply === last;
  }

  const steps = { first: () => 0, back: () => ply - 1, next: () => ply + 1, last: () => last };
  for (const button of root.querySelectorAll("[data-step]")) {
    button.addEventListener("click", () => show(steps[button.dataset.step]()));
  }
  // Other modules of the page ask for a ply with this event (the analysis chart's bars).
  root.addEventListener("replay:show", (event) => show(event.detail.ply));
  const keys = { ArrowLeft: "back", ArrowRight: "next", Home: "first", End: "last" };
  document.addEventListener("keydown", (event) => {
    const step = keys[event.key];
    const typing = event.target.closest && event.target.closest("input, textarea, select");
    if (!step || typing || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    show(steps[step]());
  });
  show(0);
}

start();
