// The game page: draws the board from the viewer's frame and plays over /ws/game/<id>/.
// Protocol: docs/PROTOCOL.md. Every frame carries the ply; a gap resyncs over HTTP.
// The boards are drawn by static/board/ and the socket kept by static/live/socket.js.
// Every word shown comes from Django's JavaScript catalogue (base.html); notation does not.
/* global gettext, ngettext, pgettext, interpolate */

import { activate, seatNumber, seatSwatch } from "../board/common.js";
import * as topiary from "../board/topiary.js";
import { drawBoard as drawWizardsBoard } from "../board/wizards_garden.js";
import { gameFrameSeen } from "../live/alerts.js";
import { compareFrames as compare, liveSocket } from "../live/socket.js";
import { namesList, resultPanel, winnerBadge } from "./result.js";

const root = document.getElementById("game");
const gameId = root.dataset.game;
const kind = root.dataset.kind;
const svg = document.getElementById("board");
const csrf = document.querySelector("input[name=csrfmiddlewaretoken]")?.value ?? "";
const $ = (id) => document.getElementById(id);

let frame = JSON.parse($("frame").textContent);
let receivedAt = performance.now();
let socket = null;
let sending = false;
let flagSent = -1;
// What the player has picked so far this turn (Topiary: position, cell, move; WG: cell, move).
let pick = {};
const awayFrom = {};
// The Wizards' Garden board before the latest move, to show what flipped and what was harvested.
let previousBoard = null;

// ------------------------------------------------------------------ Topiary

function sightLines() {
  // What each visitor sees and its points, as the engine counts them (docs/PROTOCOL.md,
  // `sight_lines`; on your turn free positions too, seat null); once over, the reveal's.
  return reveal()?.sight_lines ?? frame.sight_lines ?? [];
}

// Topiary moves are made in steps (NOTATION.md, "Turn in two steps"): the first decision
// places the visitor and maybe takes a face-down tile ("c5:S", "c5:S c4"); after a take the
// server shows the taker the tile, and the plant step names one of the four ("=R3", "=*").
function legalSteps() {
  return frame.legal_steps ?? frame.legal_moves;
}
function pendingTake() {
  // {position, cell, took}: a take waiting for its plant ("took" is "?" unless you took it).
  return frame.pending ?? frame.position?.pending ?? null;
}
function firstSteps() {
  return legalSteps().filter((step) => !step.startsWith("=")).map((step) => {
    const [pos, cell] = step.split(" ");
    return { step, pos, cell: cell ?? null };
  });
}
function plantSteps() {
  // Each tile of the taker's four and the step that plants it; "=*" is the tile just taken.
  const take = pendingTake();
  const plants = new Map();
  for (const step of legalSteps()) {
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
  for (const entry of frame.moves) {
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
  return reveal()?.position ?? frame.position;
}

function drawTopiary() {
  const position = shownPosition();
  // A 2-player game that ended mid-take shows the revealed position from before that take.
  const take = reveal() ? null : pendingTake();
  const planting = Boolean(take) && myTurn();
  const firsts = myTurn() && position.phase === "play" && !take ? firstSteps() : [];
  const takeable = new Set(firsts.filter((m) => m.pos === pick.pos && m.cell).map((m) => m.cell));
  const latest = lastPlay();
  const lines = sightLines();
  topiary.drawGarden(svg, position, {
    sightLines: lines,
    focus: pick.pos ?? take?.position ?? null,
    // The tile chosen to plant, shown where it will go until it is confirmed.
    preview: planting && pick.plant ? { cell: take.cell, code: pick.plant } : null,
    targets: !pick.cell && !pick.move ? [...new Set(firsts.map((m) => m.pos))] : [],
    chosen: pick.pos,
    seatName,
    onCell(group, cell) {
      if (pick.cell === cell || take?.cell === cell) group.classList.add("chosen");
      if (take?.cell === cell) group.classList.add("taken-from");
      if (latest && !latest.open && latest.cell === cell) group.classList.add("planted");
      if (!pick.cell && takeable.has(cell)) {
        group.classList.add("takeable");
        activate(group, WORDS.takeAt(cell), () => choose({ cell, move: `${pick.pos} ${cell}` }));
      }
    },
    onVisitor(group, pos) {
      if (latest?.pos === pos) group.classList.add("latest");
      group.addEventListener("mouseenter", () => highlight(pos));
      group.addEventListener("focus", () => highlight(pos));
      group.addEventListener("mouseleave", () => highlight(pick.pos ?? take?.position));
      group.addEventListener("blur", () => highlight(pick.pos ?? take?.position));
    },
    onChoose: (pos) => choose({ pos }),
    onTarget(group, pos) {
      group.addEventListener("mouseenter", () => highlight(pos));
      group.addEventListener("mouseleave", () => highlight(pick.pos));
    },
  });
}

function highlight(pos) {
  topiary.highlight(svg, sightLines(), pos);
}

// The words for a take, shared with the daily puzzle page (static/board/topiary.js).
const WORDS = topiary.TAKE_WORDS;

function topiaryChooser() {
  const position = frame.position;
  const options = [];
  if (position.phase === "draft") {
    const kept = pick.keep ?? [];
    const prompt = interpolate(gettext("Choose the three tiles to keep (%(count)s of 3 chosen)"),
      { count: kept.length }, true);
    return { prompt, options };
  }
  const take = pendingTake();
  if (take) {
    if (!pick.plant) return { prompt: WORDS.plantPrompt(take.took, take.cell), options };
    const prompt = interpolate(gettext("Plant %(tile)s face up at %(cell)s?"),
      { tile: topiary.tileName(pick.plant), cell: take.cell }, true);
    return { prompt, options };
  }
  const moves = firstSteps();
  if (!pick.pos) return { prompt: gettext("Choose where your visitor stands"), options };
  // Said before Confirm, as the lessons do: what the chosen position scores now.
  const sees = WORDS.wouldSee(pick.pos, topiary.sightOf(sightLines(), pick.pos).points);
  const placeOnly = moves.some((m) => m.pos === pick.pos && !m.cell);
  const canTake = moves.some((m) => m.pos === pick.pos && m.cell);
  if (!pick.cell && placeOnly) options.push([WORDS.placeOnly, { move: pick.pos }]);
  if (pick.cell) {
    const prompt = interpolate(
      gettext("Take the face-down tile at %(cell)s? You will see it, then choose the tile to plant."),
      { cell: pick.cell }, true);
    return { prompt: `${sees} ${prompt}`, options };
  }
  if (pick.move) {
    const prompt = interpolate(gettext("Place your visitor at %(position)s and take nothing?"),
      { position: pick.pos }, true);
    return { prompt: `${sees} ${prompt}`, options };
  }
  const what = canTake ? (placeOnly ? WORDS.takeOrPlace : WORDS.mustTake) : WORDS.nothingToTake;
  return { prompt: `${sees} ${what}`, options };
}

function draftPool() {
  // In a draft, the tiles to choose from: your hand and what was passed to you.
  const received = frame.position.draft?.received?.[frame.you] ?? [];
  return [...frame.position.hands[frame.you], ...received];
}

function toggleKeep(code) {
  const kept = pick.keep ?? [];
  const keep = kept.includes(code) ? kept.filter((tile) => tile !== code) : [...kept, code].slice(-3);
  const wanted = [...keep].sort().join(" ");
  const move = legalSteps().find((m) => m.split(" ").slice(1).sort().join(" ") === wanted);
  pick = { keep, move: keep.length === 3 ? move : undefined };
  if (oneTap() && pick.move) sendPick();
  else render();
}

// The ply at which the taken tile was last turned over in the tray: it animates once, not on every redraw.
let turnedOverAt = null;

function drawHand() {
  const hand = frame.position && frame.you !== null && kind === "topiary" ? frame.position.hands[frame.you] : null;
  $("hand").hidden = !hand || Boolean(reveal());
  if (!hand) return;
  if (frame.position.phase === "draft" && myTurn()) {
    $("hand-title").textContent = gettext("Your hand and the tiles passed to you");
    $("hand-tiles").replaceChildren(...draftPool().map((code) => {
      const button = handTile(code);
      button.disabled = false;
      button.classList.add("offered");
      button.setAttribute("aria-pressed", String((pick.keep ?? []).includes(code)));
      button.addEventListener("click", () => toggleKeep(code));
      return button;
    }));
    return;
  }
  const take = pendingTake();
  const plants = take && myTurn() ? plantSteps() : new Map();
  $("hand-title").textContent = take && frame.to_move === frame.you
    ? gettext("Your hand: four tiles until you plant one")
    : gettext("Your hand");
  $("hand-tiles").replaceChildren(...hand.map((code) => {
    const button = handTile(code, plants.has(code) ? WORDS.plant(code) : topiary.tileName(code));
    button.disabled = !plants.has(code);
    button.classList.toggle("offered", plants.has(code));
    button.setAttribute("aria-pressed", String(pick.plant === code));
    if (take && frame.to_move === frame.you && plantedTile(code)) {
      button.classList.add("taken");
      if (turnedOverAt !== frame.ply) {
        button.classList.add("turning");
        turnedOverAt = frame.ply;
      }
      const badge = document.createElement("span");
      badge.className = "taken-badge";
      badge.textContent = WORDS.justTaken;
      button.append(badge);
      button.setAttribute("aria-label", WORDS.withJustTaken(button.getAttribute("aria-label")));
    }
    button.addEventListener("click", () => choose({ move: plants.get(code), plant: code }));
    return button;
  }));
}

function handTile(code, label = topiary.tileName(code)) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "hand-tile";
  button.dataset.tile = code;
  button.append(topiary.miniTile(code, "hand-tile-art"));
  button.setAttribute("aria-label", label);
  return button;
}

// ------------------------------------------------------------------ what the table shows

function reveal() {
  // The end-of-game reveal (docs/PROTOCOL.md, "The end: everything revealed"): the full
  // position, every visitor's sight line and the count per seat.
  if (kind !== "topiary" || frame.status !== "finished" || !frame.final?.position) return null;
  return frame.final;
}

function drawRemovedType() {
  const box = $("removed-type");
  const type = kind === "topiary" ? frame.position?.removed_type : null;
  box.hidden = !type;
  if (!type) return;
  const { name } = topiary.TYPES[type];
  const tiles = document.createElement("span");
  tiles.className = "open-hand";
  tiles.append(...[1, 2, 3, 4, 5].map((value) => topiary.miniTile(`${type}${value}`)));
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
  const box = $("final-count");
  const shown = reveal();
  box.hidden = !shown;
  if (!shown) return;
  const position = shown.position;
  const lines = shown.sight_lines;
  const scores = shown.scores ?? frame.result?.scores ?? [];
  const winners = frame.result?.winners ?? [];
  const totals = $("final-totals");
  totals.replaceChildren(...scores.map((entry) => {
    const row = document.createElement("tr");
    row.dataset.seat = entry.seat;
    if (winners.includes(entry.seat)) row.classList.add("winner");
    const name = document.createElement("td");
    const swatch = seatSwatch(entry.seat);
    name.append(swatch, ` ${seatName(entry.seat)}`);
    if (winners.includes(entry.seat)) name.append(" ", winnerBadge());
    const hand = cellText(String(entry.hand), "num hand-points");
    const tiles = document.createElement("span");
    tiles.className = "open-hand";
    for (const code of position.hands[entry.seat] ?? []) {
      const tile = topiary.miniTile(code);
      // A hand tile scores when its owner's visitors see a larger tile of its type (the engine's count).
      const scoring = Boolean(shown.scoring_hand_tiles?.[entry.seat]?.includes(code));
      tile.classList.toggle("scores", scoring);
      const label = scoring
        ? interpolate(gettext("%(tile)s: scores %(points)s"), { tile: topiary.tileName(code), points: code[1] }, true)
        : interpolate(gettext("%(tile)s: scores nothing"), { tile: topiary.tileName(code) }, true);
      tile.setAttribute("aria-label", label);
      tiles.append(tile);
    }
    hand.prepend(tiles, " ");
    row.append(name, cellText(String(entry.visitors), "num"), cellText(String(entry.bonus), "num"), hand,
      cellText(String(entry.total), "num total"));
    return row;
  }));
  const byVisitor = $("final-visitors");
  const ordered = [...lines].sort((a, b) => a.seat - b.seat || b.points - a.points);
  byVisitor.replaceChildren(...ordered.map((line) => {
    const row = document.createElement("tr");
    row.dataset.position = line.position;
    row.tabIndex = 0;
    const who = document.createElement("td");
    const swatch = seatSwatch(line.seat);
    who.append(swatch, ` ${seatName(line.seat)}`);
    const seen = line.seen.map(({ tile }) => tile).join(" ") || pgettext("a visitor sees", "nothing");
    row.append(who, cellText(line.position), cellText(seen), cellText(String(line.points), "num"));
    // Pointing at a row shows that visitor's line on the board.
    row.addEventListener("mouseenter", () => highlight(line.position));
    row.addEventListener("focus", () => highlight(line.position));
    row.addEventListener("mouseleave", () => highlight(null));
    row.addEventListener("blur", () => highlight(null));
    return row;
  }));
}

// ------------------------------------------------------------------ Wizards' Garden

function wizardsMoves() {
  return frame.legal_moves.map((move) => {
    const [, cell, side, lines] = move.match(/^([a-d][1-4])([WB])(?:\/(.*))?$/);
    return { move, cell, side, lines };
  });
}

function drawWizards() {
  const moves = myTurn() ? wizardsMoves() : [];
  const legal = new Set(moves.map((m) => m.cell));
  drawWizardsBoard(svg, frame.position, {
    previous: previousBoard,
    seatName,
    onCell(group, cell, seed, bed) {
      if (legal.has(cell) && !pick.move) bed.classList.add("legal");
      if (pick.cell === cell) bed.classList.add("chosen");
      if (legal.has(cell) && !pick.move) {
        activate(group, interpolate(gettext("Plant on %(cell)s"), { cell }, true), () => choose({ cell }));
      }
    },
  });
}

function wizardsChooser() {
  if (!pick.cell) return { prompt: gettext("Choose a bed to plant"), options: [] };
  if (pick.move) return { prompt: playPrompt(pick.move), options: [] };
  const options = wizardsMoves().filter((m) => m.cell === pick.cell).map((m) => {
    const white = m.side === "W";
    let label = white ? gettext("White side up (Dovetail)") : gettext("Black side up (Ravenclaw)");
    if (m.lines) {
      const harvest = white ? gettext("White side up (Dovetail), harvest %(lines)s")
        : gettext("Black side up (Ravenclaw), harvest %(lines)s");
      label = interpolate(harvest, { lines: m.lines }, true);
    }
    return [label, { move: m.move }];
  });
  return { prompt: interpolate(gettext("Which side up on %(cell)s?"), { cell: pick.cell }, true), options };
}

// ------------------------------------------------------------------ panel and flow

function seatName(index) {
  return frame.seats[index]?.username ?? seatNumber(index);
}
function playing() {
  return frame.status === "active";
}
function mySeat() {
  return frame.you === null ? null : frame.seats[frame.you];
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
function remaining(index) {
  const clocks = frame.clocks;
  if (!clocks && frame.deadline && playing() && frame.to_move === index) {
    // Days per move: the mover's time runs to the deadline (server time at receipt).
    return frame.deadline - frame.server_time - (performance.now() - receivedAt);
  }
  if (!clocks || clocks.ms[index] === null) return null;
  const running = clocks.running === index;
  return clocks.ms[index] - (running ? performance.now() - receivedAt : 0);
}

function drawPlayers() {
  const list = $("players");
  list.replaceChildren(...frame.seats.map((seat) => {
    const li = document.createElement("li");
    li.className = "player-row";
    li.dataset.seat = seat.index;
    if (playing() && frame.to_move === seat.index) li.classList.add("to-move");
    const swatch = seatSwatch(seat.index);
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = seat.username ?? gettext("free seat");
    if (seat.bot) name.insertAdjacentHTML("beforeend", ' <span class="badge badge-bot">BOT</span>');
    if (seat.index === frame.you) name.append(" ", gettext("(you)"));
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
    const shown = kind === "topiary" ? shownPosition() : null;
    const hand = shown?.hands?.[seat.index];
    if (hand && reveal()) {
      // Game over: every hand is laid open, as at the table when the scores are counted.
      const tiles = document.createElement("span");
      tiles.className = "open-hand";
      tiles.dataset.seat = seat.index;
      tiles.append(...hand.map((code) => topiary.miniTile(code)));
      detail.prepend(tiles, " ");
    } else if (hand && seat.index !== frame.you) {
      const backs = document.createElement("span");
      backs.className = "backs";
      backs.title = interpolate(ngettext("Their hand: %(count)s tile you cannot see",
        "Their hand: %(count)s tiles you cannot see", hand.length), { count: hand.length }, true);
      backs.append(...hand.map(() => document.createElement("span")));
      detail.prepend(backs, " ");
    }
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
  const score = frame.score?.scores?.[seat.index];
  // Once the game is over a card shows the final count only, not the count as it stood.
  const over = Boolean(seat.rank);
  if (frame.position && kind === "topiary" && !over) {
    const left = frame.position.unplaced[seat.index];
    parts.push(interpolate(ngettext("%(count)s visitor left", "%(count)s visitors left", left), { count: left }, true));
    if (score) {
      const points = score.hand === null
        ? ngettext("%(count)s point + hand", "%(count)s points + hand", score.total)
        : ngettext("%(count)s point now", "%(count)s points now", score.total);
      parts.push(interpolate(points, { count: score.total }, true));
    }
  }
  if (frame.position && kind === "wizards_garden" && !over) {
    const flowers = frame.position.harvested[seat.index];
    parts.push(interpolate(gettext("flowers: %(white)s white, %(black)s black"),
      { white: flowers.W, black: flowers.B }, true));
    if (frame.position.staff === seat.index) parts.push(gettext("holds the Wizard's Staff"));
  }
  // With more than two players the game goes on without the one who left.
  if (seat.forfeit) parts.push(forfeitStatus(seat.forfeit, frame.seats.length > 2));
  if (seat.rank) {
    const total = seat.score?.total ?? 0;
    const text = ngettext("Final score %(count)s point, rank %(rank)s", "Final score %(count)s points, rank %(rank)s", total);
    parts.push(interpolate(text, { count: total, rank: seat.rank }, true));
  }
  return parts.join(" · ");
}

function tick() {
  for (const node of document.querySelectorAll(".clock")) {
    const index = Number(node.dataset.seat);
    const ms = remaining(index);
    node.textContent = ms === null ? "" : clockText(ms);
    const running = playing() && (frame.clocks ? frame.clocks.running : frame.to_move) === index;
    node.classList.toggle("running", ms !== null && running);
    node.classList.toggle("low", ms !== null && ms < 20000);
    if (ms !== null && ms <= 0 && running && flagSent !== frame.ply) {
      flagSent = frame.ply;
      send({ type: "flag" });
    }
  }
  const me = mySeat();
  const claimable = playing() && frame.clocks && me && !me.forfeit && frame.seats.some((seat, i) =>
    i !== frame.you && !seat.bot && !seat.forfeit && !seat.online && awayFrom[i] !== undefined &&
    performance.now() - awayFrom[i] >= 60000);
  $("claim").hidden = !claimable;
}

function statusText() {
  if (frame.status === "open") return gettext("Waiting for players");
  if (frame.status === "aborted") return gettext("Game aborted");
  if (frame.status === "finished") {
    if (!frame.result) return gettext("Game over: counting the scores…");
    const winners = frame.result.winners;
    const text = ngettext("Game over: %(names)s wins", "Game over: %(names)s share the win", winners.length);
    return interpolate(text, { names: namesList(winners.map(seatName)) }, true);
  }
  if (sending) return gettext("Sending your move…");
  if (legalSteps().length) return gettext("Your turn");
  const take = pendingTake();
  if (take) {
    return interpolate(gettext("%(player)s took %(cell)s, choosing a tile to plant…"),
      { player: seatName(frame.to_move), cell: take.cell }, true);
  }
  return interpolate(gettext("%(player)s to move"), { player: seatName(frame.to_move) }, true);
}

function drawMoves() {
  $("moves").replaceChildren(...moveLines().map((entry) => {
    const li = document.createElement("li");
    // The tile taken, where you may know it: your own takes, and every take once the game is over.
    const line = `${seatName(entry.seat)}: ${entry.move}${entry.open ? " …" : ""}`;
    li.textContent = entry.took
      ? interpolate(gettext("%(line)s (took %(tile)s)"), { line, tile: entry.took }, true)
      : line;
    if (entry.open) li.classList.add("open");
    return li;
  }));
  $("moves").scrollTop = $("moves").scrollHeight;
}

// Each game's board: how it is drawn and how a move is chosen on it. A game without an
// entry is still playable: its legal steps are offered as buttons, with no board drawn.
const BOARDS = {
  topiary: { draw: drawTopiary, chooser: topiaryChooser },
  wizards_garden: { draw: drawWizards, chooser: wizardsChooser },
};
const board = BOARDS[kind] ?? { draw: () => {}, chooser: stepsChooser };

function stepsChooser() {
  if (pick.move) return { prompt: playPrompt(pick.move), options: [] };
  return { prompt: gettext("Choose your move"), options: legalSteps().map((step) => [step, { move: step }]) };
}

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
    button.setAttribute("aria-pressed", String(pick.move === choice.move));
    button.addEventListener("click", () => choose(choice));
    return button;
  }));
  $("confirm").hidden = !(myTurn() && pick.move);
  $("cancel").hidden = !(myTurn() && (pick.pos || pick.cell || pick.move || pick.plant || pick.keep?.length));
}

const result = resultPanel({ send, seatName });

function render() {
  root.hidden = frame.status === "open";
  result.draw(frame);
  root.dataset.ply = String(frame.ply);
  if (frame.position) board.draw();
  drawHand();
  drawPlayers();
  drawRemovedType();
  drawFinalCount();
  drawMoves();
  drawChooser();
  $("status").textContent = statusText();
  const me = mySeat();
  const canResign = Boolean(playing() && me && !me.forfeit);
  if (!canResign) resignAsk.hidden = true;
  $("resign").hidden = !canResign || !resignAsk.hidden;
  $("abort").hidden = !(playing() && frame.can_abort);
  const takeback = playing() ? frame.takeback : null;
  $("takeback").hidden = !takeback?.can_offer;
  $("takeback-accept").hidden = !takeback?.can_answer;
  $("takeback-decline").hidden = !takeback?.can_answer;
  if (takeback?.offered_by !== null && takeback?.offered_by !== undefined) {
    const offer = takeback.can_answer ? gettext("takeback offered to you") : gettext("takeback offered");
    $("status").textContent += ` · ${offer}`;
  }
}

function choose(choice) {
  pick = { ...pick, ...choice };
  if (oneTap() && pick.move) {
    sendPick();
    return;
  }
  render();
  if (choice.cell && kind === "topiary") svg.querySelector(`[data-cell="${choice.cell}"]`)?.focus?.();
}

function stepBack() {
  // One step back: the tile to take (or "place only"), then the position. Once the take is
  // sent it stands, as at the table; only the choice of the tile to plant can be undone.
  if (pick.keep || pick.plant) pick = {};
  else if (pick.move && pick.pos) pick = { pos: pick.pos };
  else pick = {};
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
  const move = next.moves?.at(-1);
  if (!move || next.moves.length <= (previous.moves?.length ?? 0) || move.seat === next.you) return;
  heard.textContent = interpolate(gettext("%(player)s played %(move)s"),
    { player: seatName(move.seat), move: move.move }, true);
}

function accept(next) {
  const previous = frame;
  const wasOpen = frame.status === "open";
  const turnChanged = compare(next, frame) !== 0 || next.status !== frame.status;
  frame = next;
  gameFrameSeen(frame);
  receivedAt = performance.now();
  for (const seat of frame.seats) {
    if (seat.away_ms !== null && !seat.online) awayFrom[seat.index] = receivedAt - seat.away_ms;
    else delete awayFrom[seat.index];
  }
  if (wasOpen && frame.status !== "open") {
    location.reload();
    return;
  }
  if (turnChanged) {
    pick = {};
    sending = false;
  }
  previousBoard = previous.position?.board && next.type === "move" ? previous.position.board : null;
  render();
  announceMove(previous, next);
  if (turnChanged && pendingTake() && myTurn()) {
    // The Confirm button that sent the take is gone: keyboard users go on from the tile taken.
    const lost = !document.activeElement || document.activeElement === document.body;
    if (lost) document.querySelector("#hand-tiles .hand-tile.taken")?.focus();
  }
}

async function resync() {
  const response = await fetch(`/game/${gameId}/state.json`, { headers: { Accept: "application/json" } });
  if (response.ok) accept(await response.json());
}

function receive(message) {
  if (message.type === "state") {
    if (compare(message, frame) >= 0) accept(message);
  } else if (message.type === "move") {
    if (message.takebacks === frame.takebacks && message.ply === frame.ply + 1) accept(message);
    else if (compare(message, frame) > 0) resync();
  } else if (message.type === "takeback") {
    if (compare(message, frame) > 0) accept(message);
  } else if (message.type === "presence") {
    const seat = frame.seats[message.seat];
    if (seat) {
      seat.online = message.online;
      if (message.online) delete awayFrom[message.seat];
      else awayFrom[message.seat] = performance.now();
    }
    if (compare(message, frame) > 0) resync();
    else drawPlayers();
  } else if (message.type === "pong") {
    if (compare(message, frame) > 0) resync();
  } else if (message.type === "refused") {
    sending = false;
    showRefusal(message.reason);
    if (message.ply !== null && message.ply !== frame.ply) resync();
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
  if (!pick.move || sending) return;
  sending = true;
  showRefusal(null);
  send({ type: "move", ply: frame.ply, move: pick.move });
  render();
}

$("confirm").addEventListener("click", sendPick);
$("cancel").addEventListener("click", stepBack);
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && (pick.pos || pick.cell || pick.move || pick.plant || pick.keep?.length)) stepBack();
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
$("takeback").addEventListener("click", () => send({ type: "takeback", ply: frame.ply }));
$("takeback-accept").addEventListener("click", () => send({ type: "takeback_accept" }));
$("takeback-decline").addEventListener("click", () => send({ type: "takeback_decline" }));

setInterval(tick, 250);
accept(frame);
// A finished game's players stay connected for the rematch (its offer and its start).
const rematchOpen = frame.rematch && frame.you !== null && !frame.rematch.game;
if (frame.status === "open" || frame.status === "active" || rematchOpen) {
  // Pings every 20 s keep the seat shown online (docs/PROTOCOL.md); hello catches up after a drop.
  socket = liveSocket(`/ws/game/${gameId}/`, {
    onMessage: receive,
    hello: () => ({ type: "hello", ply: frame.ply }),
    heartbeat: 20000,
    goneText: gettext("This game does not exist."),
  });
}
