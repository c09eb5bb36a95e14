// Replay of a finished game: step through every ply with the whole deal revealed.
// The server replayed the record through the engine and embedded every frame
// (full position, score, sight lines) as JSON; this module only draws them, with the
// boards of static/board/ (the same drawing as the game page and the puzzle).
// Its words come from Django's JavaScript catalogue (base.html); notation is not translated.
/* global gettext, ngettext, pgettext, interpolate */

import { boardOf } from "../board/boards.js";
import { seatSwatch } from "../board/common.js";

function html(name, attrs = {}, text) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

// The score as it stands at a ply, in the game's score columns (its descriptor's, as the page
// data gives them, total last): a flag column shows its word for a true value. On a phone
// each player is a card of labelled facts (site.css, ``table-scores``), as the final table.
function scoreTable(frame, players, columns) {
  const table = html("table", { class: "table table-scores replay-score" });
  const head = [pgettext("score column", "Player"), ...columns.map(({ label }) => label)];
  const thead = html("thead");
  const headRow = html("tr");
  for (const label of head) headRow.append(html("th", { scope: "col" }, label));
  thead.append(headRow);
  const tbody = html("tbody");
  for (const entry of frame.score.scores) {
    const row = html("tr");
    const cells = columns.map(({ key, label, flag }) => (flag
      ? html("td", {}, entry[key] ? flag : "")
      : html("td", { class: "num", "data-label": label }, String(entry[key] ?? ""))));
    const name = html("td");
    name.append(seatSwatch(entry.seat, "seat-dot"));
    name.append(document.createTextNode(` ${players[entry.seat]}`));
    row.append(name);
    row.append(...cells);
    tbody.append(row);
  }
  table.append(thead, tbody);
  return table;
}

async function start() {
  const root = document.getElementById("replay");
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const { frames, players, game } = data;
  // The game's board object (static/board/<game>.js): its board and focus.
  const gameBoard = await boardOf(game);
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
    const note = gameBoard.moveNote?.(frame, frames[frame.ply - 1]);
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

  function drawBoard() {
    board.replaceChildren(...gameBoard.replayBoard(frames[ply],
      { players, selected, onSelect: select, previous: frames[ply - 1] }));
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
    selected = gameBoard.replayFocus(frames, ply);
    draw();
    plyLabel.textContent = frame.move
      ? interpolate(gettext("Ply %(ply)s of %(last)s · %(player)s: %(move)s"),
        { ply, last, player: players[frame.mover], move: frame.move }, true)
      : interpolate(gettext("Ply %(ply)s of %(last)s · the deal"), { ply, last }, true);
    const wrap = html("div", { class: "table-wrap" });
    wrap.append(scoreTable(frame, players, data.score_columns));
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
