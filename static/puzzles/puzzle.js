// The puzzle board of the daily puzzle and of training (stream, Streak, Storm): draw the
// garden, let the solver play K turns, submit them.
// The server is the judge: it sends the legal moves and the engine's sight lines of every
// position and replays the submitted line through the engine; this script only draws (with
// the game's board object in static/board/, as the game page and the replay do) and offers those moves.
// Its words come from Django's JavaScript catalogue (base.html); the verdict from the server.
/* global gettext, ngettext, pgettext, interpolate */

import { boardOf } from "../board/boards.js";
import { el, seatNumber } from "../board/common.js";

const data = JSON.parse(document.getElementById("puzzle-data").textContent);
// The puzzle's game's board object (static/board/<game>.js), as every board page finds it.
const garden = await boardOf(data.position.game);
const csrf = document.querySelector("input[name=csrfmiddlewaretoken]").value;

// The words for a take are the game page's (the board object's TAKE_WORDS). The puzzle
// shows face-down identities, so the tile to take is known before it is taken; it joins the
// hand tray as the fourth tile, as in a game.
const WORDS = garden.TAKE_WORDS;

const board = document.getElementById("puzzle-board");
const handTray = document.getElementById("puzzle-hand");
const choice = document.getElementById("puzzle-choice");
const movesList = document.getElementById("puzzle-moves");
const statusLine = document.getElementById("puzzle-status");
const resultBox = document.getElementById("puzzle-result");
const lineBox = document.getElementById("puzzle-line");
const undoButton = document.getElementById("puzzle-undo");
const submitButton = document.getElementById("puzzle-submit");
const giveUpButton = document.getElementById("puzzle-give-up");
const giveUpConfirm = document.getElementById("puzzle-give-up-confirm");
const sideTitle = document.getElementById("puzzle-side-title");

// One entry per position reached: the first is the puzzle itself.
// ``replies``: the opponent's replies so far, where the game has an opponent moving between
// the solver's moves (the server plays them).
const history = [{ position: data.position, legal: data.legal_moves, left: data.k, sight: data.sight_lines, replies: [] }];
const moves = [];
// The move being built: a visitor position, then maybe a cell to take, then a plant.
let selection = null;
let busy = false;
// How this try ended: null while it goes on, "submitted" or "gave-up".
let ended = null;

const current = () => history[history.length - 1];
const step = (reply) => ({
  position: reply.position, legal: reply.legal_moves, left: reply.left, sight: reply.sight_lines, replies: reply.replies ?? [],
});

// A board object with a ``puzzleBoard`` draws the puzzle and picks the moves itself (one
// where the solver's move is a single choice and an opponent replies between them); the
// rest of this script (moves, undo, submit, give up, verdict) is the same for every game.
// Without one, this script picks a Topiary-shaped move: a position, a take and a plant.
const own = garden.puzzleBoard?.({
  seat: data.seat,
  current,
  previous: () => (history.length > 1 ? history[history.length - 2].position : null),
  open: () => !ended && !busy && current().left > 0,
  changed: () => render(),
  play(move) {
    if (busy) return;
    selection = { move };
    confirmMove();
  },
});
if (own) document.getElementById("puzzle-hand-box").hidden = true;
const gardenAt = garden.gardenAt;
const tileName = garden.tileName;

function parseMove(move) {
  const [place, take] = move.split(" ");
  if (!take) return { place, cell: null, plant: null };
  const [cell, plant] = take.split("=");
  return { place, cell, plant };
}

function drawGarden(position, legal, sightLines) {
  const svg = garden.el("svg", { role: "group", "aria-label": pgettext("the board", "Garden"), class: "board" });
  board.replaceChildren(svg);
  const takeable = new Set(
    selection && !selection.cell
      ? legal.filter((m) => m.startsWith(`${selection.place} `)).map((m) => parseMove(m).cell)
      : [],
  );
  const planted = selection?.plant === "*" ? gardenAt(position, selection.cell).toUpperCase() : selection?.plant;
  const offered = !ended && !selection && current().left > 0;
  garden.drawGarden(svg, position, {
    sightLines,
    focus: selection?.place ?? null,
    // Taken: the gap waits for the tile to plant (shown faintly once chosen).
    gap: selection?.cell ?? null,
    preview: selection?.cell && planted ? { cell: selection.cell, code: planted } : null,
    targets: offered ? [...new Set(legal.map((m) => parseMove(m).place))] : selection ? [selection.place] : [],
    chosen: selection?.place ?? null,
    seatName: (seat) => (seat === data.seat ? gettext("Your seat") : seatNumber(seat)),
    onCell(group, cell) {
      if (selection?.cell === cell) group.classList.add("chosen", "taken-from");
      if (takeable.has(cell)) {
        group.classList.add("takeable");
        garden.activate(group, WORDS.takeAt(cell), () => chooseCell(cell));
      }
    },
    onVisitor(group) {
      if (Number(group.dataset.seat) === data.seat) group.classList.add("mine");
    },
    onChoose: offered ? choosePlace : null,
  });
}

function button(label, attrs, action, parent = choice) {
  const node = document.createElement("button");
  node.type = "button";
  node.textContent = label;
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  node.addEventListener("click", action);
  parent.appendChild(node);
  return node;
}

// The solver's moves, each followed by the opponent's reply to it where there is one.
function moveItems(line, replies = []) {
  return line.flatMap((move, i) => {
    const item = document.createElement("li");
    const code = document.createElement("code");
    code.textContent = move;
    item.appendChild(code);
    if (!replies[i]) return [item];
    const answer = document.createElement("li");
    answer.className = "reply";
    answer.textContent = own.replyLabel(replies[i]);
    return [item, answer];
  });
}

// ``plant`` is the plant this tile makes ("*" for the tile just taken), or null.
function handTile(text, plant, taken = false) {
  const node = document.createElement(plant ? "button" : "span");
  node.className = taken ? "hand-tile taken" : "hand-tile";
  const art = garden.miniTile(text, "hand-tile-art");
  art.setAttribute("aria-hidden", "true");
  node.appendChild(art);
  const label = document.createElement("span");
  label.className = "visually-hidden";
  const name = plant ? WORDS.plant(text) : tileName(text);
  label.textContent = taken ? WORDS.withJustTaken(name) : name;
  node.appendChild(label);
  if (taken) {
    const badge = document.createElement("span");
    badge.className = "taken-badge";
    badge.setAttribute("aria-hidden", "true");
    badge.textContent = WORDS.justTaken;
    node.appendChild(badge);
  }
  if (plant) {
    node.type = "button";
    node.dataset.plant = plant;
    node.setAttribute("aria-pressed", String(selection?.plant === plant));
    node.addEventListener("click", () => choosePlant(plant));
  }
  handTray.appendChild(node);
}

function renderOwn() {
  const svg = el("svg", { role: "group", "aria-label": pgettext("the board", "Garden"), class: "board" });
  board.replaceChildren(svg);
  own.draw(svg);
  choice.replaceChildren();
  for (const [label, attrs, action] of own.choices()) button(label, attrs, action);
}

function render() {
  const { left } = current();
  if (own) renderOwn();
  else renderPicking();
  movesList.replaceChildren(...moveItems(moves, current().replies));
  statusLine.textContent = statusText(left);
  sideTitle.textContent = ended ? gettext("Your result") : gettext("Your turn");
  undoButton.disabled = busy || ended !== null || moves.length === 0;
  submitButton.disabled = busy || ended !== null || left > 0;
  giveUpButton.disabled = busy || data.line !== null;
  if (giveUpButton.disabled) giveUpConfirm.hidden = true;
}

function renderPicking() {
  const { position, legal, sight } = current();
  drawGarden(position, legal, sight);
  handTray.replaceChildren();
  const plants = selection && selection.cell
    ? new Set(legal.filter((m) => m.startsWith(`${selection.place} ${selection.cell}=`)).map((m) => parseMove(m).plant))
    : new Set();
  for (const tile of position.hands[data.seat]) handTile(tile, plants.has(tile) ? tile : null);
  if (selection && selection.cell) {
    // The taken tile is in the hand now: four tiles, any of them may be planted.
    handTile(gardenAt(position, selection.cell).toUpperCase(), plants.has("*") ? "*" : null, true);
  }

  choice.replaceChildren();
  if (selection && !selection.cell && legal.includes(selection.place)) {
    const node = button(WORDS.placeOnly, { "data-action": "place-only" }, () => choosePlant(null));
    node.setAttribute("aria-pressed", String(Boolean(selection.move)));
  }
  if (selection && selection.move) {
    const label = interpolate(gettext("Confirm %(move)s"), { move: selection.move }, true);
    button(label, { class: "button-primary", "data-action": "confirm" }, confirmMove);
  }
  if (selection) button(gettext("Cancel"), { "data-action": "cancel" }, stepBack);
}

function statusText(left) {
  if (ended === "submitted") return gettext("Your answer is in: the verdict is below.");
  if (ended === "gave-up") return gettext("You gave up: an optimal line is below.");
  if (own) {
    const next = left ? own.prompt() : gettext("All your moves are made: submit, or undo to try something else.");
    return `${own.facts()} ${next}`;
  }
  if (!selection) {
    if (!left) return gettext("All your visitors are placed: submit, or undo to try something else.");
    // The board says how a position is picked as it is drawn: a circle, or on a phone the
    // edge tile and then the direction.
    const text = ngettext("%(count)s visitor left: choose a free position (%(how)s).",
      "%(count)s visitors left: choose a free position (%(how)s).", left);
    return interpolate(text, { count: left, how: garden.placeHint(board.querySelector("svg")) }, true);
  }
  const { legal } = current();
  if (!selection.cell && !selection.move) {
    const placeOnly = legal.includes(selection.place);
    const canTake = legal.some((m) => m.startsWith(`${selection.place} `));
    const words = canTake ? (placeOnly ? WORDS.takeOrPlace : WORDS.mustTake) : WORDS.nothingToTake;
    return `${selection.place}: ${words}.`;
  }
  if (!selection.move) {
    return WORDS.plantPrompt(gardenAt(current().position, selection.cell).toUpperCase(), selection.cell);
  }
  return interpolate(gettext("Confirm %(move)s?"), { move: selection.move }, true);
}

function choosePlace(place) {
  selection = { place, cell: null, move: null };
  render();
}

function chooseCell(cell) {
  selection = { ...selection, cell, move: null, plant: null };
  render();
}

function choosePlant(plant) {
  const move = selection.cell ? `${selection.place} ${selection.cell}=${plant}` : selection.place;
  selection = { ...selection, move, plant };
  render();
  choice.querySelector("[data-action=confirm]").focus();
}

function stepBack() {
  if (own) {
    own.cancel();
    return;
  }
  if (!selection) return;
  if (selection.move) selection = { ...selection, move: null, plant: null };
  else if (selection.cell) selection = { ...selection, cell: null };
  else selection = null;
  render();
}

async function post(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  const reply = await response.json();
  if (!response.ok) throw new Error(reply.error || `HTTP ${response.status}`);
  return reply;
}

async function confirmMove() {
  const move = selection.move;
  busy = true;
  try {
    const reply = await post(data.urls.play, { seat: data.seat, moves: [...moves, move] });
    moves.push(move);
    history.push(step(reply));
    selection = null;
  } catch (error) {
    resultBox.textContent = error.message;
  } finally {
    busy = false;
    render();
  }
}

function undo() {
  if (!moves.length) return;
  moves.pop();
  history.pop();
  selection = null;
  render();
}

// After a give-up the line is shown at once; after a solve, on request.
function showResult(reply, { lineAtOnce = false } = {}) {
  resultBox.replaceChildren();
  const verdict = document.createElement("p");
  verdict.className = reply.solved ? "verdict solved" : "verdict";
  verdict.textContent = reply.result;
  resultBox.appendChild(verdict);
  const notes = [];
  if (reply.rating) {
    notes.push(interpolate(gettext("Puzzle rating %(before)s → %(after)s"),
      { before: reply.rating.before, after: reply.rating.after }, true));
    setText("puzzle-user-rating", reply.rating.display);
  }
  if (reply.streak !== null && reply.streak !== undefined) {
    const days = interpolate(ngettext("%(count)s day", "%(count)s days", reply.streak), { count: reply.streak }, true);
    const streak = data.is_today ? gettext("Streak: %(days)s") : gettext("Streak: %(days)s (only today's puzzle counts)");
    notes.push(interpolate(streak, { days }, true));
    setText("puzzle-streak", days);
  }
  for (const note of notes) {
    const p = document.createElement("p");
    p.textContent = note;
    resultBox.appendChild(p);
  }
  if (reply.run) {
    const run = document.createElement("p");
    run.className = "run-verdict";
    run.textContent = reply.run.text;
    resultBox.appendChild(run);
    setText("training-run-text", reply.run.text);
    runClock(reply.run);
  }
  // In a run the next puzzle is the run's: no second try at this one.
  if (!reply.solved && !reply.run) button(gettext("Try again"), {}, tryAgain, resultBox);
  if (reply.next_url || data.next_url) {
    const next = document.createElement("a");
    next.className = "button button-primary";
    next.dataset.action = "next";
    next.href = reply.next_url || data.next_url;
    next.textContent = reply.run?.over ? gettext("See the result") : gettext("Next puzzle");
    resultBox.appendChild(next);
    next.focus();
    // A storm runs against the clock: its next puzzle comes without a click.
    if (reply.run?.mode === "storm" && !reply.run.over) setTimeout(() => location.assign(next.href), 700);
  }
  if (reply.line) data.line = reply.line;
  if (reply.line && lineAtOnce) showLine(reply.line);
  else if (reply.line && !lineBox.querySelector("li")) {
    const show = button(gettext("Show an optimal line"), {}, () => {
      showLine(reply.line);
      show.remove();
    }, resultBox);
  }
}

// Storm: the time left, counted down from the server's deadline (the server's clock is
// the judge: an answer it receives late does not count, whatever this shows).
let clockTimer = null;
function runClock(run) {
  const clock = document.getElementById("training-clock");
  if (clockTimer) clearInterval(clockTimer);
  if (!clock) return;
  if (!run.deadline_ms) {
    clock.textContent = "";
    return;
  }
  const offset = run.server_ms - Date.now();
  const tick = () => {
    const left = Math.max(0, run.deadline_ms - (Date.now() + offset));
    const seconds = Math.ceil(left / 1000);
    clock.textContent = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
    if (!left) {
      clearInterval(clockTimer);
      clock.textContent = gettext("Time is up");
      // The run's page asks the server, which ends the run once its own clock agrees.
      if (!ended) setTimeout(() => location.assign(data.next_url), 1000);
    }
  };
  tick();
  clockTimer = setInterval(tick, 250);
}

function setText(id, text) {
  const node = document.getElementById(id);
  if (node) node.textContent = text;
}

function showLine(line) {
  const heading = document.createElement("h3");
  heading.textContent = gettext("One optimal line");
  const list = document.createElement("ol");
  list.className = "puzzle-moves";
  list.replaceChildren(...moveItems(line));
  lineBox.replaceChildren(heading, list);
  button(gettext("Play it on the board"), { "data-action": "play-line" }, () => playLine(line), lineBox);
}

// Replays the revealed line move by move, so each step can be undone and looked at. A line
// longer than K holds the opponent's replies between the solver's moves: the server plays
// those again.
async function playLine(line) {
  tryAgain();
  busy = true;
  const mine = line.length > data.k ? line.filter((_, i) => i % 2 === 0) : line;
  try {
    for (const move of mine) {
      const reply = await post(data.urls.play, { seat: data.seat, moves: [...moves, move] });
      moves.push(move);
      history.push(step(reply));
    }
  } catch (error) {
    resultBox.textContent = error.message;
  } finally {
    busy = false;
    render();
  }
}

function tryAgain() {
  moves.length = 0;
  history.length = 1;
  selection = null;
  ended = null;
  resultBox.replaceChildren();
  render();
}

async function submit() {
  busy = true;
  render();
  try {
    const reply = await post(data.urls.submit, { seat: data.seat, moves });
    ended = "submitted";
    showResult(reply);
  } catch (error) {
    resultBox.textContent = error.message;
  } finally {
    busy = false;
    render();
  }
}

async function giveUp() {
  busy = true;
  giveUpConfirm.hidden = true;
  render();
  try {
    const reply = await post(data.urls.give_up, {});
    ended = "gave-up";
    showResult(reply, { lineAtOnce: true });
  } catch (error) {
    resultBox.textContent = error.message;
  } finally {
    busy = false;
    render();
  }
}

undoButton.addEventListener("click", undo);
submitButton.addEventListener("click", submit);
function askGiveUp(asking) {
  giveUpConfirm.hidden = !asking;
  (asking ? document.getElementById("puzzle-give-up-no") : giveUpButton).focus();
}

giveUpButton.addEventListener("click", () => askGiveUp(true));
document.getElementById("puzzle-give-up-yes").addEventListener("click", giveUp);
document.getElementById("puzzle-give-up-no").addEventListener("click", () => askGiveUp(false));
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  if (!giveUpConfirm.hidden) askGiveUp(false);
  else stepBack();
});
if (data.line) showLine(data.line);
if (data.run) runClock(data.run);
render();
