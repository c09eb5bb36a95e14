// The game page: draws the board from the viewer's frame and plays over /ws/game/<id>/.
// Protocol: docs/PROTOCOL.md. Every frame carries the ply; a gap resyncs over HTTP.

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

const SVG = "http://www.w3.org/2000/svg";
function el(name, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}
function titled(node, text) {
  node.prepend(el("title", {}, text));
  return node;
}
function activate(node, label, action) {
  node.setAttribute("role", "button");
  node.setAttribute("tabindex", "0");
  node.setAttribute("aria-label", label);
  node.addEventListener("click", action);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      action();
    }
  });
  return node;
}

// ------------------------------------------------------------------ Topiary

const TYPES = {
  E: ["Elephant", "#E69F00", "#000"],
  H: ["Polyhedron", "#56B4E9", "#000"],
  N: ["Swan", "#009E73", "#fff"],
  O: ["Pom Pom", "#F0E442", "#000"],
  P: ["Pyramid", "#0072B2", "#fff"],
  R: ["T-Rex", "#D55E00", "#fff"],
  S: ["Spiral", "#CC79A7", "#000"],
  W: ["Whale", "#000000", "#fff"],
};
const GLYPHS = {
  E: "M3 15V9a7 6 0 0 1 14 0v3q0 5 -3 6M7 15v3M12 15v3",
  H: "M10 2L17 6V14L10 18L3 14V6ZM10 10V18M10 10L17 6M10 10L3 6",
  N: "M4 16Q10 19 16 15Q15 11 9 12Q13 8 9 3Q7 2 6 4",
  O: "M10 3.5a2.5 2.5 0 1 0 0.01 0M10 8.5a3 3 0 1 0 0.01 0M10 14a3.5 3.5 0 1 0 0.01 0",
  P: "M10 3L18 17H2Z",
  R: "M2 7L5 13L8 7L11 13L14 7L17 13",
  S: "M10 10a1.5 1.5 0 0 1 3 0a3 3 0 0 1 -6 0a4.5 4.5 0 0 1 9 0a6 6 0 0 1 -12 0",
  W: "M2 12Q6 5 13 9Q15 10 16 8L18 5V12Q14 16 8 16Q3 16 2 12Z",
};
const SEAT_COLOURS = ["#c0392b", "#1f5fbf", "#8e44ad", "#d4a017"];
const FILES = "abcde";
const DIRS = { N: [0, 1], NE: [1, 1], E: [1, 0], SE: [1, -1], S: [0, -1], SW: [-1, -1], W: [-1, 0], NW: [-1, 1] };
const T = 60, G = 8, M = 64, STEP = T + G;

function cellOrigin(cell) {
  const f = FILES.indexOf(cell[0]);
  const r = Number(cell[1]);
  return [M + f * STEP, M + (5 - r) * STEP];
}
function gardenAt(position, cell) {
  const f = FILES.indexOf(cell[0]);
  const r = Number(cell[1]);
  return position.garden[5 - r][f];
}
function lineOf(pos) {
  const [entry, dir] = pos.split(":");
  const [df, dr] = DIRS[dir];
  let f = FILES.indexOf(entry[0]);
  let r = Number(entry[1]);
  const cells = [];
  while (f >= 0 && f < 5 && r >= 1 && r <= 5) {
    cells.push(FILES[f] + r);
    f += df;
    r += dr;
  }
  return cells;
}
function pawnSpot(pos) {
  const [entry, dir] = pos.split(":");
  const [df, dr] = DIRS[dir];
  const [x, y] = cellOrigin(entry);
  const away = df && dr ? 51 : 37;
  return [x + T / 2 - df * away, y + T / 2 + dr * away, df, -dr];
}
function isGap(code) {
  // An empty cell: the tile was taken and nothing is planted yet (a pending take).
  return code === ".";
}
function isFaceUp(code) {
  return code !== "?" && !isGap(code) && code[0] === code[0].toUpperCase();
}
function knownBack(code) {
  // A face-down tile whose identity the page may show ("r3": the game is over).
  return code !== "?" && !isGap(code) && !isFaceUp(code);
}
function sightLines() {
  // What each visitor sees and its points, as the engine counts them (docs/PROTOCOL.md,
  // `sight_lines`; on your turn free positions too, seat null); once over, the reveal's.
  return reveal()?.sight_lines ?? frame.sight_lines ?? [];
}
function seenFrom(pos) {
  // The cells whose tiles a visitor at ``pos`` sees now, and the points they make.
  const sight = sightLines().find((line) => line.position === pos);
  return { cells: sight ? sight.seen.map(({ cell }) => cell) : [], points: sight?.points ?? 0 };
}

function tileFace(code, x, y, size = T) {
  const [name, fill, ink] = TYPES[code[0]];
  const scale = size / T;
  const group = el("g", { class: "tile-art" });
  group.append(
    el("rect", { class: "tile-face", x, y, width: size, height: size, rx: 6 * scale, fill }),
    el("text", { class: "value", x: x + size / 2, y: y + size * 0.62, "text-anchor": "middle", fill: ink,
      "font-size": 26 * scale }, code[1]),
    el("path", { class: "glyph", d: GLYPHS[code[0]], stroke: ink,
      transform: `translate(${x + size - 23 * scale} ${y + 3 * scale}) scale(${scale})` }),
  );
  return titled(group, `${name} ${code[1]}`);
}
function tileBack(x, y, size = T, code = "?") {
  const back = el("rect", { class: "tile-back", x, y, width: size, height: size, rx: 6, fill: "url(#hedge)" });
  if (!knownBack(code)) return titled(back, "Face-down tile");
  // Game over: the tile stays face down (it never counted) but shows what it is, small and dimmed.
  const face = code.toUpperCase();
  const small = tileFace(face, x + size * 0.42, y + size * 0.42, size * 0.5);
  small.classList.add("revealed-identity");
  return titled(el("g", { class: "tile-back-known" }, back, small), `Face-down tile: ${tileLabel(face)}`);
}
function gapSlot(x, y) {
  return titled(el("rect", { class: "gap", x: x + 2, y: y + 2, width: T - 4, height: T - 4, rx: 6 }),
    "Empty: the tile here was taken, one is about to be planted");
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
  const size = 2 * M + 5 * T + 4 * G;
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  const defs = el("defs", {},
    el("pattern", { id: "hedge", width: 10, height: 10, patternUnits: "userSpaceOnUse" },
      el("rect", { width: 10, height: 10, fill: "#3d7a45" }),
      el("circle", { cx: 3, cy: 3, r: 1.6, fill: "#4f9458" }),
      el("circle", { cx: 8, cy: 8, r: 1.2, fill: "#336b3b" })),
    el("marker", { id: "tip", viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 4, markerHeight: 4,
      orient: "auto-start-reverse" }, el("path", { d: "M0 0L10 5L0 10Z", fill: "context-stroke" })));
  const layer = el("g");
  svg.replaceChildren(defs, layer);
  // A 2-player game that ended mid-take shows the revealed position from before that take.
  const take = reveal() ? null : pendingTake();
  const planting = Boolean(take) && myTurn();
  const firsts = myTurn() && position.phase === "play" && !take ? firstSteps() : [];
  const focus = pick.pos ?? take?.position ?? null;
  const line = focus ? lineOf(focus) : [];
  const seen = focus ? seenFrom(focus).cells : [];
  const takeable = new Set(firsts.filter((m) => m.pos === pick.pos && m.cell).map((m) => m.cell));
  const latest = lastPlay();

  for (let r = 5; r >= 1; r--) {
    for (const f of FILES) {
      const cell = f + r;
      const [x, y] = cellOrigin(cell);
      const code = gardenAt(position, cell);
      const classes = ["tile"];
      if (line.includes(cell)) classes.push("in-line");
      if (seen.includes(cell)) classes.push("sees");
      const group = el("g", { class: classes.join(" "), "data-cell": cell,
        "data-tile": isFaceUp(code) ? code : null });
      if (isGap(code)) group.append(gapSlot(x, y));
      else group.append(isFaceUp(code) ? tileFace(code, x, y) : tileBack(x, y, T, code));
      if (planting && take.cell === cell && pick.plant) {
        // The tile chosen to plant, shown where it will go until it is confirmed.
        const preview = tileFace(pick.plant, x, y);
        preview.classList.add("preview");
        group.append(preview);
      }
      group.append(el("rect", { class: "sight-ring focus-ring", x: x - 3, y: y - 3, width: T + 6, height: T + 6,
        rx: 8, fill: "none" }));
      if (pick.cell === cell || take?.cell === cell) group.classList.add("chosen");
      if (take?.cell === cell) group.classList.add("taken-from");
      if (latest && !latest.open && latest.cell === cell) group.classList.add("planted");
      if (!pick.cell && takeable.has(cell)) {
        group.classList.add("takeable");
        activate(group, `Take the face-down tile at ${cell}`, () => choose({ cell, move: `${pick.pos} ${cell}` }));
      }
      layer.append(group);
    }
  }
  for (const [pos, seat] of Object.entries(position.visitors)) {
    const [cx, cy, dx, dy] = pawnSpot(pos);
    const colour = SEAT_COLOURS[seat];
    const group = el("g", { class: `visitor${latest?.pos === pos ? " latest" : ""}`, "data-position": pos,
      "data-seat": seat });
    const points = seenFrom(pos).points;
    group.append(
      el("line", { class: "arrow", x1: cx + dx * 9, y1: cy + dy * 9, x2: cx + dx * 22, y2: cy + dy * 22,
        stroke: colour, "marker-end": "url(#tip)" }),
      el("circle", { class: "pawn", cx, cy, r: 11, fill: colour }),
      el("circle", { class: "pawn-outline", cx, cy, r: 12.5 }),
      el("text", { x: cx, y: cy + 4, "text-anchor": "middle" }, String(seat + 1)),
      el("text", { class: "seen", x: cx - dx * 16 + (dy ? 14 : 0), y: cy - dy * 16 + (dx ? -12 : 4),
        "text-anchor": "middle" }, String(points)),
    );
    titled(group, `${seatName(seat)}'s visitor at ${pos}: sees ${points} now`);
    group.setAttribute("tabindex", "0");
    group.addEventListener("mouseenter", () => highlight(pos));
    group.addEventListener("focus", () => highlight(pos));
    group.addEventListener("mouseleave", () => highlight(pick.pos ?? take?.position));
    group.addEventListener("blur", () => highlight(pick.pos ?? take?.position));
    layer.append(group);
  }
  const positions = [...new Set(firsts.map((m) => m.pos))];
  if (!pick.cell && !pick.move) {
    for (const pos of positions) {
      const [cx, cy, dx, dy] = pawnSpot(pos);
      const target = el("g", { class: `target${pick.pos === pos ? " chosen" : ""}`, "data-position": pos },
        el("line", { class: "arrow", x1: cx + dx * 6, y1: cy + dy * 6, x2: cx + dx * 14, y2: cy + dy * 14 }),
        el("circle", { class: "hit", cx, cy, r: 14 }),
        el("circle", { class: "focus-ring", cx, cy, r: 8 }));
      activate(target, `Place a visitor at ${pos}`, () => choose({ pos }));
      target.addEventListener("mouseenter", () => highlight(pos));
      target.addEventListener("mouseleave", () => highlight(pick.pos));
      layer.append(target);
    }
  }
}

function highlight(pos) {
  const line = pos ? lineOf(pos) : [];
  const seen = pos ? seenFrom(pos).cells : [];
  for (const tile of svg.querySelectorAll(".tile")) {
    tile.classList.toggle("in-line", line.includes(tile.dataset.cell));
    tile.classList.toggle("sees", seen.includes(tile.dataset.cell));
  }
}

// The words for a take are the same here and on the daily puzzle page (static/puzzles/puzzle.js).
const WORDS = {
  placeOnly: "Place only (take nothing)",
  takeOrPlace: "Take a face-down tile from the line, or place only",
  mustTake: "Take a face-down tile from the line",
  nothingToTake: "No face-down tile in this line: place only",
  plantPrompt: (took, cell) => `You took ${tileLabel(took)}. Choose the tile to plant face up at ${cell}: any of your four.`,
  plant: (code) => `Plant ${tileLabel(code)}`,
  justTaken: "just taken",
};

function topiaryChooser() {
  const position = frame.position;
  const options = [];
  if (position.phase === "draft") {
    const kept = pick.keep ?? [];
    return { prompt: `Choose the three tiles to keep (${kept.length} of 3 chosen)`, options };
  }
  const take = pendingTake();
  if (take) {
    if (!pick.plant) return { prompt: WORDS.plantPrompt(take.took, take.cell), options };
    return { prompt: `${WORDS.plant(pick.plant)} face up at ${take.cell}?`, options };
  }
  const moves = firstSteps();
  if (!pick.pos) return { prompt: "Choose where your visitor stands", options };
  const placeOnly = moves.some((m) => m.pos === pick.pos && !m.cell);
  const canTake = moves.some((m) => m.pos === pick.pos && m.cell);
  if (!pick.cell && placeOnly) options.push([WORDS.placeOnly, { move: pick.pos }]);
  if (pick.cell) {
    return { prompt: `Take the face-down tile at ${pick.cell}? You will see it, then choose the tile to plant.`,
      options };
  }
  if (pick.move) return { prompt: `Place your visitor at ${pick.pos} and take nothing?`, options };
  return { prompt: canTake ? (placeOnly ? WORDS.takeOrPlace : WORDS.mustTake) : WORDS.nothingToTake, options };
}

function tileLabel(code) {
  return `${TYPES[code[0]][0]} ${code[1]}`;
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
  render();
}

// The ply at which the taken tile was last turned over in the tray: it animates once, not on every redraw.
let turnedOverAt = null;

function drawHand() {
  const hand = frame.position && frame.you !== null && kind === "topiary" ? frame.position.hands[frame.you] : null;
  $("hand").hidden = !hand || Boolean(reveal());
  if (!hand) return;
  if (frame.position.phase === "draft" && myTurn()) {
    $("hand-title").textContent = "Your hand and the tiles passed to you";
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
    ? "Your hand: four tiles until you plant one"
    : "Your hand";
  $("hand-tiles").replaceChildren(...hand.map((code) => {
    const button = handTile(code, plants.has(code) ? WORDS.plant(code) : tileLabel(code));
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
      button.setAttribute("aria-label", `${button.getAttribute("aria-label")} (${WORDS.justTaken})`);
    }
    button.addEventListener("click", () => choose({ move: plants.get(code), plant: code }));
    return button;
  }));
}

function handTile(code, label = tileLabel(code)) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "hand-tile";
  button.dataset.tile = code;
  const art = el("svg", { viewBox: `0 0 ${T} ${T}`, role: "img", "aria-label": tileLabel(code) });
  art.append(tileFace(code, 0, 0));
  button.append(art);
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
  const [name] = TYPES[type];
  const tiles = document.createElement("span");
  tiles.className = "open-hand";
  tiles.append(...[1, 2, 3, 4, 5].map((value) => miniTile(`${type}${value}`)));
  box.replaceChildren(`Out of this game: all five ${name} tiles `, tiles);
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
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = SEAT_COLOURS[entry.seat];
    name.append(swatch, ` ${seatName(entry.seat)}`);
    if (winners.includes(entry.seat)) name.insertAdjacentHTML("beforeend", ' <span class="badge">Winner</span>');
    const hand = cellText(String(entry.hand), "num hand-points");
    const tiles = document.createElement("span");
    tiles.className = "open-hand";
    for (const code of position.hands[entry.seat] ?? []) {
      const tile = miniTile(code);
      // A hand tile scores when its owner's visitors see a larger tile of its type (the engine's count).
      const scoring = Boolean(shown.scoring_hand_tiles?.[entry.seat]?.includes(code));
      tile.classList.toggle("scores", scoring);
      tile.setAttribute("aria-label", `${tileLabel(code)}: ${scoring ? `scores ${code[1]}` : "scores nothing"}`);
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
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = SEAT_COLOURS[line.seat];
    who.append(swatch, ` ${seatName(line.seat)}`);
    const seen = line.seen.map(({ tile }) => tile).join(" ") || "nothing";
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

const BED = 80, GAP = 6, EDGE = 20;
function bedOrigin(cell) {
  const f = "abcd".indexOf(cell[0]);
  const r = Number(cell[1]);
  return [EDGE + f * (BED + GAP), EDGE + (4 - r) * (BED + GAP)];
}
function wizardsMoves() {
  return frame.legal_moves.map((move) => {
    const [, cell, side, lines] = move.match(/^([a-d][1-4])([WB])(?:\/(.*))?$/);
    return { move, cell, side, lines };
  });
}

function drawWizards() {
  const position = frame.position;
  const size = 2 * EDGE + 4 * BED + 3 * GAP;
  svg.setAttribute("viewBox", `0 0 ${size} ${size + 56}`);
  const layer = el("g");
  svg.replaceChildren(layer);
  const moves = myTurn() ? wizardsMoves() : [];
  const legal = new Set(moves.map((m) => m.cell));
  for (let r = 4; r >= 1; r--) {
    for (const f of "abcd") {
      const cell = f + r;
      const [x, y] = bedOrigin(cell);
      const seed = position.board[4 - r]["abcd".indexOf(f)];
      const classes = ["bed", "focus-ring"];
      if (legal.has(cell) && !pick.move) classes.push("legal");
      if (pick.cell === cell) classes.push("chosen");
      const group = el("g", { class: "bed-cell", "data-cell": cell },
        el("rect", { class: classes.join(" "), x, y, width: BED, height: BED, rx: 8 }));
      const before = previousBoard?.[4 - r]["abcd".indexOf(f)];
      if (before && before !== "." && seed === ".") {
        group.append(el("circle", { class: "harvest-flash", cx: x + BED / 2, cy: y + BED / 2, r: 30 }));
      }
      if (seed !== ".") {
        if (before && before !== "." && before !== seed) group.classList.add("flipped");
        group.append(
          el("circle", { class: `seed-${seed}`, cx: x + BED / 2, cy: y + BED / 2, r: 28 }),
          el("circle", { class: "seed-ring", cx: x + BED / 2, cy: y + BED / 2, r: 31 }),
        );
      }
      titled(group, `${cell}: ${seed === "W" ? "white seed (Dovetail)" : seed === "B" ? "black seed (Ravenclaw)" : "empty bed"}`);
      if (legal.has(cell) && !pick.move) activate(group, `Plant on ${cell}`, () => choose({ cell }));
      layer.append(group);
    }
  }
  const staff = position.staff === null ? "beside the board" : `with ${seatName(position.staff)}`;
  layer.append(
    el("text", { class: "board-note", x: EDGE, y: size + 16 }, `Basket: ${position.basket} seeds`),
    el("text", { class: "board-note", x: EDGE, y: size + 40 }, `Wizard's Staff: ${staff}`),
  );
}

function wizardsChooser() {
  if (!pick.cell) return { prompt: "Choose a bed to plant", options: [] };
  if (pick.move) return { prompt: `Play ${pick.move}?`, options: [] };
  const options = wizardsMoves().filter((m) => m.cell === pick.cell).map((m) => {
    const side = m.side === "W" ? "White side up (Dovetail)" : "Black side up (Ravenclaw)";
    return [m.lines ? `${side}, harvest ${m.lines}` : side, { move: m.move }];
  });
  return { prompt: `Which side up on ${pick.cell}?`, options };
}

// ------------------------------------------------------------------ panel and flow

function seatName(index) {
  return frame.seats[index]?.username ?? `Seat ${index + 1}`;
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
  if (total >= 3600) return `${Math.floor(total / 3600)}h ${String(Math.floor((total % 3600) / 60)).padStart(2, "0")}m`;
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
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = SEAT_COLOURS[seat.index];
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = seat.username ?? "free seat";
    if (seat.bot) name.insertAdjacentHTML("beforeend", ' <span class="badge badge-bot">BOT</span>');
    if (seat.index === frame.you) name.append(" (you)");
    const dot = document.createElement("span");
    dot.className = `online${seat.online ? " yes" : ""}`;
    dot.title = seat.online ? "online" : "away";
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
      tiles.append(...hand.map((code) => miniTile(code)));
      detail.prepend(tiles, " ");
    } else if (hand && seat.index !== frame.you) {
      const backs = document.createElement("span");
      backs.className = "backs";
      backs.title = `Their hand: ${hand.length} tiles you cannot see`;
      backs.append(...hand.map(() => document.createElement("span")));
      detail.prepend(backs, " ");
    }
    li.append(swatch, name, clock, detail);
    return li;
  }));
  tick();
}

function seatDetail(seat) {
  const parts = [];
  const score = frame.score?.scores?.[seat.index];
  if (frame.position && kind === "topiary") {
    parts.push(`${plural(frame.position.unplaced[seat.index], "visitor")} left`);
    if (score) parts.push(score.hand === null ? `${plural(score.total, "point")} + hand` : `${plural(score.total, "point")} now`);
  }
  if (frame.position && kind === "wizards_garden") {
    const flowers = frame.position.harvested[seat.index];
    parts.push(`flowers: ${flowers.W} white, ${flowers.B} black`);
    if (frame.position.staff === seat.index) parts.push("holds the Wizard's Staff");
  }
  if (seat.forfeit) parts.push({ resign: "resigned", time: "out of time", gone: "left" }[seat.forfeit] + (frame.seats.length > 2 ? ", a bot plays on" : ""));
  if (seat.rank) parts.push(`Final score ${plural(seat.score?.total ?? 0, "point")}, rank ${seat.rank}`);
  return parts.join(" · ");
}

// "1 point", "2 points": messages read as sentences (issue 15).
function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
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

function miniTile(code) {
  const art = el("svg", { class: "mini-tile", viewBox: `0 0 ${T} ${T}`, role: "img", "aria-label": tileLabel(code),
    "data-tile": code });
  art.append(tileFace(code, 0, 0));
  return art;
}

function statusText() {
  if (frame.status === "open") return "Waiting for players";
  if (frame.status === "aborted") return "Game aborted";
  if (frame.status === "finished") {
    if (!frame.result) return "Game over: counting the scores…";
    const names = frame.result.winners.map(seatName).join(" and ");
    return `Game over: ${names} ${frame.result.winners.length > 1 ? "share the win" : "wins"}`;
  }
  if (sending) return "Sending your move…";
  if (legalSteps().length) return "Your turn";
  const take = pendingTake();
  if (take) return `${seatName(frame.to_move)} took ${take.cell}, choosing a tile to plant…`;
  return `${seatName(frame.to_move)} to move`;
}

function drawMoves() {
  $("moves").replaceChildren(...moveLines().map((entry) => {
    const li = document.createElement("li");
    // The tile taken, where you may know it: your own takes, and every take once the game is over.
    const took = entry.took ? ` (took ${entry.took})` : "";
    li.textContent = `${seatName(entry.seat)}: ${entry.move}${entry.open ? " …" : ""}${took}`;
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
  if (pick.move) return { prompt: `Play ${pick.move}?`, options: [] };
  return { prompt: "Choose your move", options: legalSteps().map((step) => [step, { move: step }]) };
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

function render() {
  root.hidden = frame.status === "open";
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
  $("resign").hidden = !(playing() && me && !me.forfeit);
  $("abort").hidden = !(playing() && frame.can_abort);
  $("links").hidden = frame.status !== "finished";
  const takeback = playing() ? frame.takeback : null;
  $("takeback").hidden = !takeback?.can_offer;
  $("takeback-accept").hidden = !takeback?.can_answer;
  $("takeback-decline").hidden = !takeback?.can_answer;
  if (takeback?.offered_by !== null && takeback?.offered_by !== undefined) {
    $("status").textContent += takeback.can_answer ? " · takeback offered to you" : " · takeback offered";
  }
}

function choose(choice) {
  pick = { ...pick, ...choice };
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

function accept(next) {
  const previous = frame;
  const wasOpen = frame.status === "open";
  const turnChanged = compare(next, frame) !== 0 || next.status !== frame.status;
  frame = next;
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

// Frames are ordered by (takebacks, ply): a takeback lowers the ply but raises the count.
function compare(a, b) {
  return (a.takebacks ?? 0) - (b.takebacks ?? 0) || a.ply - b.ply;
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
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(message));
  } else if (message.type === "move") {
    postAction(`/game/${gameId}/move`, { ply: message.ply, move: message.move });
  } else {
    postAction(`/game/${gameId}/${message.type}`, message);
  }
}

function connect(delay = 500) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/game/${gameId}/`);
  socket.addEventListener("open", () => {
    delay = 500;
    socket.send(JSON.stringify({ type: "hello", ply: frame.ply }));
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    if (event.code === 4404) return;
    setTimeout(() => connect(Math.min(delay * 2, 10000)), delay);
  });
}

$("confirm").addEventListener("click", () => {
  if (!pick.move || sending) return;
  sending = true;
  showRefusal(null);
  send({ type: "move", ply: frame.ply, move: pick.move });
  render();
});
$("cancel").addEventListener("click", stepBack);
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && (pick.pos || pick.cell || pick.move || pick.plant || pick.keep?.length)) stepBack();
});
$("resign").addEventListener("click", () => {
  if (confirm("Resign this game?")) send({ type: "resign" });
});
$("abort").addEventListener("click", () => send({ type: "abort" }));
$("claim").addEventListener("click", () => send({ type: "claim" }));
$("takeback").addEventListener("click", () => send({ type: "takeback", ply: frame.ply }));
$("takeback-accept").addEventListener("click", () => send({ type: "takeback_accept" }));
$("takeback-decline").addEventListener("click", () => send({ type: "takeback_decline" }));

setInterval(tick, 250);
setInterval(() => {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "ping" }));
}, 20000);
accept(frame);
if (frame.status === "open" || frame.status === "active") connect();
