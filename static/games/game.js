// The game page: draws the board from the viewer's frame and plays over /ws/game/<id>/.
// Protocol: docs/PROTOCOL.md. Every frame carries the ply; a gap resyncs over HTTP.
// The boards are drawn by static/board/ and the socket kept by static/live/socket.js.
// Every word shown comes from Django's JavaScript catalogue (base.html); notation does not.
/* global gettext, ngettext, pgettext, interpolate */

import { boardOf } from "../board/boards.js";
import { seatNumber, seatSwatch } from "../board/common.js";
import { gameFrameSeen } from "../live/alerts.js";
import { compareFrames as compare, liveSocket } from "../live/socket.js";
import { headline, resultPanel, winnerBadge } from "./result.js";

const root = document.getElementById("game");
const gameId = root.dataset.game;
const kind = root.dataset.kind;
const svg = document.getElementById("board");
const csrf = document.querySelector("input[name=csrfmiddlewaretoken]")?.value ?? "";
const $ = (id) => document.getElementById(id);

let receivedAt = performance.now();
let socket = null;
let sending = false;
let flagSent = -1;
const awayFrom = {};
// The live state the game's board reads too: the viewer's frame, what the player has picked
// so far this turn, and the board before the latest move (to show what changed).
const state = { frame: JSON.parse($("frame").textContent), pick: {}, previousBoard: null };

// ------------------------------------------------------------------ panel and flow

// A turn may be made in steps (NOTATION.md, "Turn in two steps"): the frame offers the
// steps open now; a game of one step a move offers its moves.
function legalSteps() {
  return state.frame.legal_steps ?? state.frame.legal_moves;
}
function seatName(index) {
  return state.frame.seats[index]?.username ?? seatNumber(index);
}
function playing() {
  return state.frame.status === "active";
}
function mySeat() {
  return state.frame.you === null ? null : state.frame.seats[state.frame.you];
}
function myTurn() {
  return playing() && !sending && legalSteps().length > 0;
}

function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  if (total >= 3600) {
    const hours = Math.floor(total / 3600);
    const minutes = String(Math.floor((total % 3600) / 60)).padStart(2, "0");
    return interpolate(pgettext("a clock showing hours and minutes", "%(hours)sh %(minutes)sm"), { hours, minutes }, true);
  }
  const minutes = Math.floor(total / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return `${minutes}:${seconds}`;
}
function pausedFor(index) {
  return state.frame.paused_ms !== null && state.frame.paused_ms !== undefined && playing() &&
    state.frame.to_move === index;
}
function remaining(index) {
  const clocks = state.frame.clocks;
  // Days per move, the player to move on vacation: their time stands still.
  if (!clocks && pausedFor(index)) return state.frame.paused_ms;
  if (!clocks && state.frame.deadline && playing() && state.frame.to_move === index) {
    // Days per move: the mover's time runs to the deadline (server time at receipt).
    return state.frame.deadline - state.frame.server_time - (performance.now() - receivedAt);
  }
  if (!clocks || clocks.ms[index] === null) return null;
  const running = clocks.running === index;
  return clocks.ms[index] - (running ? performance.now() - receivedAt : 0);
}

function drawPlayers() {
  if (!board) return;
  const list = $("players");
  list.replaceChildren(...state.frame.seats.map((seat) => {
    const li = document.createElement("li");
    li.className = "player-row";
    li.dataset.seat = seat.index;
    if (playing() && state.frame.to_move === seat.index) li.classList.add("to-move");
    const swatch = seatSwatch(seat.index);
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = seat.username ?? gettext("free seat");
    if (seat.bot) name.insertAdjacentHTML("beforeend", ' <span class="badge badge-bot">BOT</span>');
    if (seat.index === state.frame.you) name.append(" ", gettext("(you)"));
    const dot = document.createElement("span");
    dot.className = `online${seat.online ? " yes" : ""}`;
    dot.title = seat.online ? pgettext("a player's presence", "online") : pgettext("a player's presence", "away");
    name.append(dot);
    const clock = document.createElement("span");
    clock.className = "clock";
    clock.dataset.seat = seat.index;
    const detail = document.createElement("span");
    detail.className = "detail";
    detail.textContent = seatDetail(seat);
    const hand = board.handOf(seat);
    if (hand) detail.prepend(hand, " ");
    li.append(swatch, name, clock, detail);
    return li;
  }));
  tick();
}

// What became of a seat that left (the frame's `forfeit`), beside its name.
function forfeitStatus(forfeit, botPlaysOn) {
  const words = botPlaysOn
    ? { resign: gettext("resigned, a bot plays on"), time: gettext("out of time, a bot plays on"),
      gone: gettext("left, a bot plays on") }
    : { resign: pgettext("a player who", "resigned"), time: pgettext("a player who is", "out of time"),
      gone: pgettext("a player who", "left") };
  return words[forfeit];
}

function seatDetail(seat) {
  const parts = [];
  // Once the game is over a card shows the final count only, not the count as it stood.
  const over = Boolean(seat.rank);
  if (!over) parts.push(...board.seatDetail(seat));
  if (seat.vacation_until) {
    const day = new Date(seat.vacation_until).toLocaleDateString(document.documentElement.lang || undefined,
      { day: "numeric", month: "long", year: "numeric" });
    parts.push(interpolate(gettext("on vacation until %(date)s"), { date: day }, true));
  }
  // With more than two players the game goes on without the one who left.
  if (seat.forfeit) parts.push(forfeitStatus(seat.forfeit, state.frame.seats.length > 2));
  if (seat.rank) {
    const total = seat.score?.total ?? 0;
    // A place shared with another player reads "=1", as on the result panel and the replay.
    const shared = state.frame.seats.filter((other) => other.rank === seat.rank).length > 1;
    const text = ngettext("Final score %(count)s point, rank %(rank)s", "Final score %(count)s points, rank %(rank)s", total);
    parts.push(interpolate(text, { count: total, rank: shared ? `=${seat.rank}` : seat.rank }, true));
  }
  return parts.join(" · ");
}

function tick() {
  for (const node of document.querySelectorAll(".clock")) {
    const index = Number(node.dataset.seat);
    const ms = remaining(index);
    node.textContent = ms === null ? "" : clockText(ms);
    const running = playing() && !pausedFor(index) &&
      (state.frame.clocks ? state.frame.clocks.running : state.frame.to_move) === index;
    node.classList.toggle("running", ms !== null && running);
    node.classList.toggle("low", ms !== null && ms < 20000);
    node.classList.toggle("paused", pausedFor(index));
    if (ms !== null && ms <= 0 && running && flagSent !== state.frame.ply) {
      flagSent = state.frame.ply;
      send({ type: "flag" });
    }
  }
  const me = mySeat();
  const claimable = playing() && state.frame.clocks && me && !me.forfeit && state.frame.seats.some((seat, i) =>
    i !== state.frame.you && !seat.bot && !seat.forfeit && !seat.online && awayFrom[i] !== undefined &&
    performance.now() - awayFrom[i] >= 60000);
  $("claim").hidden = !claimable;
}

function statusText() {
  if (state.frame.status === "open") return gettext("Waiting for players");
  if (state.frame.status === "aborted") return gettext("Game aborted");
  if (state.frame.status === "finished") {
    if (!state.frame.result) return gettext("Game over: counting the scores…");
    // The result in the result panel's words ("alice wins", "Draw", ...).
    return interpolate(gettext("Game over: %(result)s"), { result: headline(state.frame, seatName) }, true);
  }
  if (sending) return gettext("Sending your move…");
  if (legalSteps().length) return gettext("Your turn");
  return board.waiting() ?? interpolate(gettext("%(player)s to move"), { player: seatName(state.frame.to_move) }, true);
}

function drawMoves() {
  $("moves").replaceChildren(...board.moveLines().map((entry) => {
    const li = document.createElement("li");
    // The tile taken, where you may know it: your own takes, and every take once the game is over.
    const line = `${seatName(entry.seat)}: ${entry.move}${entry.open ? " …" : ""}`;
    li.textContent = entry.took
      ? interpolate(gettext("%(line)s (took %(tile)s)"), { line, tile: entry.took }, true)
      : line;
    // What the move did beyond its notation, where the game's board says (a harvest, say).
    if (entry.note) {
      const note = document.createElement("span");
      note.className = "move-note";
      note.textContent = entry.note;
      li.append(" ", note);
    }
    if (entry.open) li.classList.add("open");
    return li;
  }));
  $("moves").scrollTop = $("moves").scrollHeight;
}



// The game's board object (static/board/<kind>.js, found by the kind): its drawing, its targets and how a move
// is picked on them, its hand, its player cards' details and its end-of-game reveal. This
// page gives it the live state and its own actions. Null until its script has loaded (the
// end of this module): frames that come before are kept and drawn then.
let board = null;

function playPrompt(move) {
  return interpolate(gettext("Play %(move)s?"), { move }, true);
}

function drawChooser() {
  const { prompt, options } = myTurn() ? board.chooser() : { prompt: "", options: [] };
  $("prompt").textContent = prompt;
  $("options").replaceChildren(...options.map(([label, choice]) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button";
    button.textContent = label;
    button.setAttribute("aria-pressed", String(state.pick.move === choice.move));
    button.addEventListener("click", () => choose(choice));
    return button;
  }));
  $("confirm").hidden = !(myTurn() && state.pick.move);
  $("cancel").hidden = !(myTurn() && (state.pick.pos || state.pick.cell || state.pick.move || state.pick.plant || state.pick.keep?.length));
}

const result = resultPanel({ send, seatName });

function render() {
  if (!board) return;
  root.hidden = state.frame.status === "open";
  result.draw(state.frame);
  root.dataset.ply = String(state.frame.ply);
  if (state.frame.position) board.draw();
  board.drawHand();
  drawPlayers();
  board.drawExtras();
  drawMoves();
  drawChooser();
  $("status").textContent = statusText();
  const me = mySeat();
  const canResign = Boolean(playing() && me && !me.forfeit);
  if (!canResign) resignAsk.hidden = true;
  $("resign").hidden = !canResign || !resignAsk.hidden;
  $("abort").hidden = !(playing() && state.frame.can_abort);
  const takeback = playing() ? state.frame.takeback : null;
  $("takeback").hidden = !takeback?.can_offer;
  $("takeback-accept").hidden = !takeback?.can_answer;
  $("takeback-decline").hidden = !takeback?.can_answer;
  if (takeback?.offered_by !== null && takeback?.offered_by !== undefined) {
    const offer = takeback.can_answer ? gettext("takeback offered to you") : gettext("takeback offered");
    $("status").textContent += ` · ${offer}`;
  }
}

function choose(choice) {
  state.pick = { ...state.pick, ...choice };
  if (oneTap() && state.pick.move) {
    sendPick();
    return;
  }
  render();
  board.afterChoose(choice);
}

function stepBack() {
  // One step back: the tile to take (or "place only"), then the position. Once the take is
  // sent it stands, as at the table; only the choice of the tile to plant can be undone.
  if (state.pick.keep || state.pick.plant) state.pick = {};
  else if (state.pick.move && state.pick.pos) state.pick = { pos: state.pick.pos };
  else state.pick = {};
  render();
}

// ------------------------------------------------------------------ talking to the server

function showRefusal(message) {
  const box = $("refusal");
  box.textContent = message ?? "";
  box.hidden = !message;
}

// What a screen reader hears of the others' moves (the chooser says one's own choices).
const heard = document.createElement("p");
heard.className = "visually-hidden";
heard.setAttribute("aria-live", "polite");
heard.dataset.announce = "moves";
root.append(heard);

function announceMove(previous, next) {
  // A move made in steps is said as its line ("c5:S c4=R3") when its last step comes.
  const line = board?.moveLines().at(-1);
  if (!line || next.moves.length <= (previous.moves?.length ?? 0) || line.seat === next.you || line.open) return;
  heard.textContent = interpolate(gettext("%(player)s played %(move)s"),
    { player: seatName(line.seat), move: line.note ? `${line.move} (${line.note})` : line.move }, true);
}

function accept(next) {
  const previous = state.frame;
  const wasOpen = state.frame.status === "open";
  const turnChanged = compare(next, state.frame) !== 0 || next.status !== state.frame.status;
  state.frame = next;
  gameFrameSeen(state.frame);
  receivedAt = performance.now();
  for (const seat of state.frame.seats) {
    if (seat.away_ms !== null && !seat.online) awayFrom[seat.index] = receivedAt - seat.away_ms;
    else delete awayFrom[seat.index];
  }
  if (wasOpen && state.frame.status !== "open") {
    location.reload();
    return;
  }
  if (turnChanged) {
    state.pick = {};
    sending = false;
  }
  state.previousBoard = previous.position?.board && next.type === "move" ? previous.position.board : null;
  render();
  announceMove(previous, next);
  if (turnChanged) board?.afterTurn();
}

async function resync() {
  const response = await fetch(`/game/${gameId}/state.json`, { headers: { Accept: "application/json" } });
  if (response.ok) accept(await response.json());
}

function receive(message) {
  if (message.type === "state") {
    if (compare(message, state.frame) >= 0) accept(message);
  } else if (message.type === "move") {
    if (message.takebacks === state.frame.takebacks && message.ply === state.frame.ply + 1) accept(message);
    else if (compare(message, state.frame) > 0) resync();
  } else if (message.type === "takeback") {
    if (compare(message, state.frame) > 0) accept(message);
  } else if (message.type === "presence") {
    const seat = state.frame.seats[message.seat];
    if (seat) {
      seat.online = message.online;
      if (message.online) delete awayFrom[message.seat];
      else awayFrom[message.seat] = performance.now();
    }
    if (compare(message, state.frame) > 0) resync();
    else drawPlayers();
  } else if (message.type === "pong") {
    if (compare(message, state.frame) > 0) resync();
  } else if (message.type === "refused") {
    sending = false;
    showRefusal(message.reason);
    if (message.ply !== null && message.ply !== state.frame.ply) resync();
    else render();
  }
}

async function postAction(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf },
    body: JSON.stringify(body ?? {}),
  });
  const data = await response.json();
  if (data.type === "refused") receive(data);
  else accept(data);
}

function send(message) {
  if (socket?.send(message)) return;
  if (message.type === "move") postAction(`/game/${gameId}/move`, { ply: message.ply, move: message.move });
  else postAction(`/game/${gameId}/${message.type}`, message);
}

// "One tap" (the player's confirm_moves preference off, PREFS_CONTRACT): the final choice
// sends the move at once; by default the Confirm button does.
function oneTap() {
  return document.body.dataset.confirmMoves === "0";
}

function sendPick() {
  if (!state.pick.move || sending) return;
  sending = true;
  showRefusal(null);
  send({ type: "move", ply: state.frame.ply, move: state.pick.move });
  render();
}

$("confirm").addEventListener("click", sendPick);
$("cancel").addEventListener("click", stepBack);
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && (state.pick.pos || state.pick.cell || state.pick.move || state.pick.plant || state.pick.keep?.length)) stepBack();
});
// Resigning is asked once more on the page, as the other choices are confirmed.
const resignAsk = document.createElement("span");
resignAsk.className = "cluster resign-ask";
resignAsk.hidden = true;
resignAsk.setAttribute("role", "group");
resignAsk.setAttribute("aria-label", gettext("Resign this game?"));
const resignQuestion = document.createElement("span");
resignQuestion.textContent = gettext("Resign this game?");
const resignYes = document.createElement("button");
resignYes.type = "button";
resignYes.className = "button button-danger";
resignYes.dataset.action = "resign-confirm";
resignYes.textContent = gettext("Yes, resign");
const resignNo = document.createElement("button");
resignNo.type = "button";
resignNo.className = "button";
resignNo.dataset.action = "resign-cancel";
resignNo.textContent = gettext("Keep playing");
resignAsk.append(resignQuestion, resignYes, resignNo);
$("resign").after(resignAsk);
function askResign(asked) {
  resignAsk.hidden = !asked;
  render();
  (asked ? resignNo : $("resign")).focus();
}
$("resign").addEventListener("click", () => askResign(true));
resignNo.addEventListener("click", () => askResign(false));
resignYes.addEventListener("click", () => {
  resignAsk.hidden = true;
  send({ type: "resign" });
});
resignAsk.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  event.stopPropagation();
  askResign(false);
});
$("abort").addEventListener("click", () => send({ type: "abort" }));
$("claim").addEventListener("click", () => send({ type: "claim" }));
$("takeback").addEventListener("click", () => send({ type: "takeback", ply: state.frame.ply }));
$("takeback-accept").addEventListener("click", () => send({ type: "takeback_accept" }));
$("takeback-decline").addEventListener("click", () => send({ type: "takeback_decline" }));

setInterval(tick, 250);
accept(state.frame);
// A finished game's players stay connected for the rematch (its offer and its start).
const rematchOpen = state.frame.rematch && state.frame.you !== null && !state.frame.rematch.game;
if (state.frame.status === "open" || state.frame.status === "active" || rematchOpen) {
  // Pings every 20 s keep the seat shown online (docs/PROTOCOL.md); hello catches up after a drop.
  socket = liveSocket(`/ws/game/${gameId}/`, {
    onMessage: receive,
    hello: () => ({ type: "hello", ply: state.frame.ply }),
    heartbeat: 20000,
    goneText: gettext("This game does not exist."),
  });
}
// An open table's invite link (its creator's page only): copy it in one click.
const inviteCopy = $("invite-copy");
if (inviteCopy && navigator.clipboard) {
  inviteCopy.hidden = false;
  inviteCopy.addEventListener("click", async () => {
    await navigator.clipboard.writeText($("invite-url").value);
    inviteCopy.textContent = gettext("Copied");
  });
}
board = (await boardOf(kind)).gamePage({
  state,
  svg,
  $,
  legalSteps,
  myTurn,
  choose,
  render,
  oneTap,
  sendPick,
  seatName,
  winnerBadge,
  playPrompt,
});
render();
