// Post-game analysis on the replay page (docs/ANALYSIS.md): asks for it, shows its
// progress, then marks the engine's move on the board at every position where a turn
// was decided (drawn by the shared board modules), the points lost beside each move of
// the list, a chart of the points lost per move and each player's totals.
// The replay (static/games/replay.js) says when it drew a ply ("replay:drawn" on the
// board) and shows a ply when asked ("replay:show" on #replay).
// Its words come from Django's JavaScript catalogue (base.html) and its numbers are written
// in the page's language ("2.5" in English, "2,5" in German); moves stay in notation.
/* global gettext, interpolate */

import { boardOf } from "../board/boards.js";
import { SEAT_COLOURS, el, seatSwatch } from "../board/common.js";

const POLL_MS = 1000;
// Points lost from which a move is an inaccuracy, a mistake, a blunder (docs/ANALYSIS.md).
const GRADES = [[6, "blunder", "??"], [3, "mistake", "?"], [1, "inaccuracy", "?!"]];

const panel = document.getElementById("analysis");
const replay = document.getElementById("replay");
const board = document.getElementById("replay-board");
const here = document.getElementById("analysis-here");
const statusLine = document.getElementById("analysis-status");
const progress = document.getElementById("analysis-progress");
const form = document.getElementById("analysis-request");
const signIn = document.getElementById("analysis-sign-in");
const result = document.getElementById("analysis-result");
const { frames, players, game } = JSON.parse(document.getElementById("replay-data").textContent);
// The game's board object (static/board/<game>.js) marks the engine's move on its board.
const gameBoard = await boardOf(game);

// The frame each turn starts at: a take and its plant are two frames of one turn, and two
// decisions (the plant's verdict is the turn's "plant").
const turnStart = [];
frames.forEach((frame, index) => {
  if (index > 0 && frame.step !== "plant") turnStart.push(index);
});
// The turn's decisions: per decision, the frame it leads to and its verdict.
function decisions(verdict, turn) {
  const start = turnStart[turn];
  const out = [[start, verdict]];
  if (verdict?.plant && frames[start + 1]?.step === "plant") out.push([start + 1, verdict.plant]);
  return out;
}
// The decision made at each frame (the one leading to the next frame): filled once analysed.
let decidedAt = new Map();

let analysis = null;
let shownPly = 0;

const LANGUAGE = document.documentElement.lang || "en";
const decimals = (digits) => new Intl.NumberFormat(LANGUAGE, { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ONE_DECIMAL = decimals(1);
const TWO_DECIMALS = decimals(2);
const PERCENT = new Intl.NumberFormat(LANGUAGE, { style: "percent", maximumFractionDigits: 1 });

const signed = (value) => `${value > 0 ? "+" : value < 0 ? "−" : ""}${ONE_DECIMAL.format(Math.abs(value))}`;

function grade(lost) {
  return GRADES.find(([from]) => lost >= from) ?? [0, "good", ""];
}

function lossText(verdict) {
  if (verdict.lost <= 0) return gettext("the engine's choice too");
  const lost = ONE_DECIMAL.format(verdict.lost);
  // The standard error of a loss estimated from sampled deals.
  if (verdict.se) {
    return interpolate(gettext("%(points)s ± %(error)s points lost"), { points: lost, error: ONE_DECIMAL.format(verdict.se) }, true);
  }
  return interpolate(gettext("%(points)s points lost"), { points: lost }, true);
}

function markPly(ply) {
  shownPly = ply;
  if (!analysis || !decidedAt.has(ply + 1)) {
    here.hidden = true;
    return;
  }
  const verdict = decidedAt.get(ply + 1);
  here.hidden = false;
  if (!verdict) {
    here.textContent = gettext("Draft turn: not analysed.");
    return;
  }
  const svg = board.querySelector("svg");
  if (svg) gameBoard.markMove(svg, verdict.best, verdict.seat);
  here.replaceChildren(
    seatSwatch(verdict.seat, "seat-dot"),
    document.createTextNode(` ${interpolate(
      gettext("%(player)s played %(played)s (%(played_points)s); engine: %(best)s (%(best_points)s): %(loss)s."),
      { player: players[verdict.seat], played: verdict.played, played_points: signed(verdict.played_points),
        best: verdict.best, best_points: signed(verdict.best_points), loss: lossText(verdict) }, true)}`),
  );
}

function annotateMoves() {
  decidedAt.forEach((verdict, ply) => {
    const button = document.querySelector(`#replay-moves [data-ply="${ply}"]`);
    if (!verdict || !button) return;
    button.closest("li").querySelector(".analysis-loss")?.remove();
    const [, name, symbol] = grade(verdict.lost);
    const text = verdict.lost > 0 ? `−${ONE_DECIMAL.format(verdict.lost)}${symbol}` : "✓";
    const badge = document.createElement("span");
    badge.className = `analysis-loss grade-${name}`;
    badge.textContent = text;
    badge.title = interpolate(gettext("Engine: %(move)s; %(loss)s"), { move: verdict.best, loss: lossText(verdict) }, true);
    button.after(badge);
  });
}

function playerRows() {
  const body = document.querySelector("#analysis-players tbody");
  body.replaceChildren();
  for (const entry of analysis.players) {
    const row = document.createElement("tr");
    const name = document.createElement("td");
    name.append(seatSwatch(entry.seat, "seat-dot"), document.createTextNode(` ${players[entry.seat]}`));
    row.append(name);
    const perMove = entry.moves ? TWO_DECIMALS.format(entry.lost / entry.moves) : "–";
    const accuracy = entry.accuracy === null ? "–" : PERCENT.format(entry.accuracy / 100);
    for (const value of [entry.moves, ONE_DECIMAL.format(entry.lost), perMove, accuracy]) {
      const cell = document.createElement("td");
      cell.className = "num";
      cell.textContent = String(value);
      row.append(cell);
    }
    body.append(row);
  }
}

// "move 3", under the chart's axis.
function moveNumber(number) {
  return interpolate(gettext("move %(number)s"), { number }, true);
}

// One bar per turn in the mover's colour, as tall as the points lost, its move named in its
// title. The move list is where a move is chosen (its targets are large enough on a phone).
function chart() {
  const box = document.getElementById("analysis-chart");
  // Drawn at the width it is shown at, so its text stays readable on a phone.
  const width = Math.max(280, Math.min(720, Math.round(box.clientWidth || 640)));
  const height = 180;
  const top = 16;
  const bottom = 24;
  const left = 34;
  const turns = analysis.turns;
  // A turn's bar: the points its decisions lost (a take and its plant are two).
  const lost = turns.map((verdict) => (verdict ? verdict.lost + (verdict.plant?.lost ?? 0) : 0));
  const most = Math.max(1, ...lost);
  const slot = (width - left) / turns.length;
  const scale = (height - top - bottom) / most;
  const svg = el("svg", { class: "analysis-bars", viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": gettext("Expected points lost per move, each bar in its player's colour") });
  const base = height - bottom;
  svg.append(
    el("line", { class: "axis", x1: left, y1: base, x2: width, y2: base }),
    el("line", { class: "axis", x1: left, y1: top, x2: left, y2: base }),
    el("text", { class: "axis-label", x: left - 4, y: top + 4, "text-anchor": "end" }, most.toFixed(0)),
    el("text", { class: "axis-label", x: left - 4, y: base + 4, "text-anchor": "end" }, "0"),
    el("text", { class: "axis-label", x: left + 2, y: height - 6 }, moveNumber(1)),
    el("text", { class: "axis-label", x: width - 2, y: height - 6, "text-anchor": "end" }, moveNumber(turns.length)),
  );
  turns.forEach((verdict, turn) => {
    if (!verdict) return;
    const x = left + turn * slot;
    const tall = Math.max(1.5, lost[turn] * scale);
    const label = decisions(verdict, turn).map(([, decision]) => interpolate(
      gettext("Move %(number)s, %(player)s: %(move)s, %(loss)s"),
      { number: turn + 1, player: players[verdict.seat], move: decision.played, loss: lossText(decision) }, true)).join("; ");
    svg.append(el("rect", { class: "analysis-bar", "data-turn": turn, "data-seat": verdict.seat,
      x: x + slot * 0.15, y: base - tall, width: slot * 0.7, height: tall, fill: SEAT_COLOURS[verdict.seat] },
    el("title", {}, label)));
  });
  box.replaceChildren(svg);
}

function show(state) {
  const running = state.status === "queued" || state.status === "running";
  progress.hidden = !running;
  if (state.status === "running" && state.total) {
    progress.max = state.total;
    progress.value = state.done;
  } else {
    progress.removeAttribute("value");
  }
  if (form) form.hidden = !state.can_request;
  if (signIn) signIn.hidden = state.status !== "none" && state.status !== "failed";
  const texts = {
    none: gettext("This game has not been analysed yet."),
    queued: gettext("Analysis queued: waiting for the engine…"),
    running: state.total
      ? interpolate(gettext("Analysing move %(number)s of %(total)s…"),
        { number: Math.min(state.done + 1, state.total), total: state.total }, true)
      : gettext("Analysis starting…"),
    done: gettext("Analysed: each move against the engine's choice from the same view."),
    failed: state.error,
  };
  statusLine.textContent = texts[state.status];
  panel.dataset.status = state.status;
  if (state.status === "done") {
    analysis = state;
    decidedAt = new Map(state.turns.flatMap((verdict, turn) => decisions(verdict, turn)));
    result.hidden = false;
    annotateMoves();
    playerRows();
    chart();
    replay.dispatchEvent(new CustomEvent("replay:show", { detail: { ply: shownPly } }));
  }
  if (running) setTimeout(load, POLL_MS);
}

async function answer(response) {
  const state = await response.json();
  if (!response.ok) {
    statusLine.textContent = state.error ?? gettext("The analysis could not be loaded.");
    return;
  }
  show(state);
}

async function load() {
  try {
    await answer(await fetch(panel.dataset.stateUrl, { headers: { Accept: "application/json" } }));
  } catch {
    statusLine.textContent = gettext("The analysis could not be loaded; retrying…");
    setTimeout(load, POLL_MS * 5);
  }
}

form?.addEventListener("submit", async (event) => {
  event.preventDefault();
  const button = form.querySelector("button");
  button.disabled = true;
  try {
    await answer(await fetch(panel.dataset.requestUrl, {
      method: "POST",
      headers: { Accept: "application/json", "X-CSRFToken": form.elements.csrfmiddlewaretoken.value },
    }));
  } catch {
    statusLine.textContent = gettext("The request did not reach the server; try again.");
  } finally {
    button.disabled = false;
  }
});

board.addEventListener("replay:drawn", (event) => markPly(event.detail.ply));
window.addEventListener("resize", () => {
  if (analysis) chart();
});
load();
