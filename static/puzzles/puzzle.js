// The daily puzzle board: draw the garden, let the solver play K turns, submit them.
// The server is the judge: it sends the legal moves of every position and replays the
// submitted line through the engine; this script only draws and offers those moves.

const data = JSON.parse(document.getElementById("puzzle-data").textContent);
const csrf = document.querySelector("input[name=csrfmiddlewaretoken]").value;
const SVG = "http://www.w3.org/2000/svg";

const STEP = 64;
const TILE = 56;
// Up to three visitors share the space outside an edge tile: they stand at the same
// distance from their entry tile along their own sight line, so none overlap.
const REACH = 1.1;
const MARGIN = STEP * 1.4;
const SIZE = STEP * 5 + MARGIN * 2;
const DIRECTIONS = {
  N: [0, 1], NE: [1, 1], E: [1, 0], SE: [1, -1],
  S: [0, -1], SW: [-1, -1], W: [-1, 0], NW: [-1, 1],
};
// Okabe-Ito colours, one per type; the glyph tells types apart without hue.
const TYPE_COLOURS = {
  E: "#E69F00", H: "#56B4E9", N: "#009E73", O: "#F0E442",
  P: "#0072B2", R: "#D55E00", S: "#CC79A7", W: "#000000",
};
const LIGHT_INK = new Set(["P", "W"]);
const GLYPHS = {
  E: "M-7 5 A7 7 0 1 1 7 1 L7 8 M-4 5 L-4 8 M2 5 L2 8",
  H: "M0 -8 L7 -4 L7 4 L0 8 L-7 4 L-7 -4 Z M0 -8 L0 0 L7 4 M0 0 L-7 4",
  N: "M-6 8 L6 8 M-4 8 Q-6 0 2 -2 Q6 -4 4 -8 Q2 -10 0 -7",
  O: "M0 -8 A3 3 0 1 1 0 -2 A3 3 0 1 1 0 -8 M0 -2 A4 4 0 1 1 0 6 A4 4 0 1 1 0 -2 M0 6 L0 9",
  P: "M0 -8 L8 7 L-8 7 Z M0 -8 L2 7",
  R: "M-8 7 L-5 -3 L-2 5 L1 -7 L4 5 L8 -3 L8 7",
  S: "M0 0 A2 2 0 0 1 2 2 A4 4 0 0 1 -4 2 A6 6 0 0 1 6 -2 A8 8 0 0 1 -8 2",
  W: "M-8 0 Q-6 -6 2 -5 Q8 -4 7 2 Q2 7 -6 4 Z M7 -1 L10 -6 M7 -1 L10 3",
};
const SEAT_COLOURS = ["#fdfdfd", "#7f2704", "#3f007d", "#525252"];

// The words for a take are the game page's (static/games/game.js, WORDS): the same choice
// reads the same on both pages. The puzzle shows face-down identities, so the tile to take
// is known before it is taken; it joins the hand tray as the fourth tile, as in a game.
const WORDS = {
  placeOnly: "Place only (take nothing)",
  takeOrPlace: "Take a face-down tile from the line, or place only",
  mustTake: "Take a face-down tile from the line",
  nothingToTake: "No face-down tile in this line: place only",
  plantPrompt: (took, cell) => `You took ${tileName(took)}. Choose the tile to plant face up at ${cell}: any of your four.`,
  plant: (code) => `Plant ${tileName(code)}`,
  justTaken: "just taken",
};

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

// One entry per position reached: the first is the puzzle itself.
const history = [{ position: data.position, legal: data.legal_moves, left: data.k }];
const moves = [];
// The move being built: a visitor position, then maybe a cell to take, then a plant.
let selection = null;
let busy = false;
let finished = false;

const current = () => history[history.length - 1];

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function cellXY(cell) {
  const file = cell.charCodeAt(0) - 97;
  const rank = Number(cell[1]) - 1;
  return [file, rank];
}

function centre(file, rank) {
  return [MARGIN + file * STEP + STEP / 2, MARGIN + (4 - rank) * STEP + STEP / 2];
}

function cellName(file, rank) {
  return String.fromCharCode(97 + file) + (rank + 1);
}

function gardenAt(position, cell) {
  const [file, rank] = cellXY(cell);
  return position.garden[4 - rank][file];
}

function sightLine(place) {
  const [entry, dir] = place.split(":");
  const [df, dr] = DIRECTIONS[dir];
  let [file, rank] = cellXY(entry);
  const cells = [];
  while (file >= 0 && file < 5 && rank >= 0 && rank < 5) {
    cells.push(cellName(file, rank));
    file += df;
    rank += dr;
  }
  return cells;
}

// A visitor stands outside the garden, just behind its entry tile, looking along its line.
function visitorXY(place) {
  const [entry, dir] = place.split(":");
  const [df, dr] = DIRECTIONS[dir];
  const [file, rank] = cellXY(entry);
  const norm = Math.hypot(df, dr);
  const [x, y] = centre(file - (df / norm) * REACH, rank - (dr / norm) * REACH);
  return [x, y, df, dr];
}

function parseMove(move) {
  const [place, take] = move.split(" ");
  if (!take) return { place, cell: null, plant: null };
  const [cell, plant] = take.split("=");
  return { place, cell, plant };
}

function tileName(text) {
  return `${data.type_names[text[0].toUpperCase()]} ${text[1]}`;
}

function drawTileFace(group, text, size, dimmed) {
  const type = text[0].toUpperCase();
  const ink = LIGHT_INK.has(type) ? "#fff" : "#111";
  const face = el("g", { opacity: dimmed ? 0.6 : 1 }, group);
  el("rect", {
    x: -size / 2, y: -size / 2, width: size, height: size, rx: size / 8,
    fill: TYPE_COLOURS[type], stroke: "#222", "stroke-width": 1,
  }, face);
  el("path", {
    d: GLYPHS[type], fill: "none", stroke: ink, "stroke-width": 1.6,
    "stroke-linecap": "round", "stroke-linejoin": "round",
    transform: `translate(${-size / 4} ${size / 6}) scale(${size / 56})`,
  }, face);
  const value = el("text", {
    x: size / 4, y: -size / 12, fill: ink, "font-size": size * 0.42, "font-weight": 700,
    "text-anchor": "middle", "dominant-baseline": "middle",
  }, face);
  value.textContent = text[1];
}

function drawGarden(position, legal) {
  board.replaceChildren();
  const svg = el("svg", {
    viewBox: `0 0 ${SIZE} ${SIZE}`, role: "group", "aria-label": "Garden", class: "garden",
  }, board);
  const defs = el("defs", {}, svg);
  const hedge = el("pattern", {
    id: "hedge", width: 8, height: 8, patternUnits: "userSpaceOnUse",
  }, defs);
  el("rect", { width: 8, height: 8, fill: "#2f6b3a" }, hedge);
  el("path", { d: "M0 8 L8 0", stroke: "#3f8a4c", "stroke-width": 2 }, hedge);

  const line = selection ? sightLine(selection.place) : [];
  const takeable = new Set(
    selection && !selection.cell
      ? legal.filter((m) => m.startsWith(`${selection.place} `)).map((m) => parseMove(m).cell)
      : [],
  );
  for (let rank = 4; rank >= 0; rank--) {
    for (let file = 0; file < 5; file++) {
      const cell = cellName(file, rank);
      const text = gardenAt(position, cell);
      const [x, y] = centre(file, rank);
      const group = el("g", { transform: `translate(${x} ${y})`, "data-cell": cell, class: "cell" }, svg);
      const title = el("title", {}, group);
      if (selection && selection.cell === cell) {
        // Taken: the gap waits for the tile to plant (shown faintly once chosen).
        el("rect", {
          x: -TILE / 2 + 2, y: -TILE / 2 + 2, width: TILE - 4, height: TILE - 4, rx: 6,
          fill: "#e9e2cf", stroke: "#8a6d3b", "stroke-width": 1.5, "stroke-dasharray": "5 3", class: "gap",
        }, group);
        const planted = selection.plant === "*" ? text.toUpperCase() : selection.plant;
        if (planted) el("g", { opacity: 0.6, class: "preview" }, group).append(...previewFace(planted));
        title.textContent = `${cell}: taken, the tile to plant goes here`;
      } else if (text === text.toLowerCase()) {
        el("rect", {
          x: -TILE / 2, y: -TILE / 2, width: TILE, height: TILE, rx: 6,
          fill: "url(#hedge)", stroke: "#1f4a27",
        }, group);
        const small = el("g", { transform: `translate(${TILE / 5} ${TILE / 5})` }, group);
        drawTileFace(small, text, TILE * 0.45, true);
        title.textContent = `${cell}: face down (${tileName(text)})`;
      } else {
        drawTileFace(group, text, TILE, false);
        title.textContent = `${cell}: ${tileName(text)}`;
      }
      if (line.includes(cell)) {
        el("rect", {
          x: -TILE / 2 - 3, y: -TILE / 2 - 3, width: TILE + 6, height: TILE + 6, rx: 8,
          fill: "none", stroke: "#0b61c7", "stroke-width": 2, "stroke-dasharray": "4 3",
        }, group);
      }
      if (selection && selection.cell === cell) {
        el("rect", {
          x: -TILE / 2 - 4, y: -TILE / 2 - 4, width: TILE + 8, height: TILE + 8, rx: 8,
          fill: "none", stroke: "#0b61c7", "stroke-width": 4,
        }, group);
      }
      if (takeable.has(cell)) {
        group.classList.add("takeable");
        makeChoosable(group, `Take the face-down tile at ${cell}`, () => chooseCell(cell));
      }
    }
  }
  for (const [place, seat] of Object.entries(position.visitors)) drawVisitor(svg, place, seat);
  if (!finished && !selection && current().left > 0) {
    const places = new Set(legal.map((m) => parseMove(m).place));
    for (const place of places) drawTarget(svg, place);
  }
  if (selection) drawTarget(svg, selection.place, true);
}

function drawVisitor(svg, place, seat) {
  const [x, y, df, dr] = visitorXY(place);
  const mine = seat === data.seat;
  const group = el("g", { transform: `translate(${x} ${y})`, class: "visitor", "data-visitor": place }, svg);
  el("title", {}, group).textContent = `Seat ${seat} visitor at ${place}`;
  const angle = (Math.atan2(-dr, df) * 180) / Math.PI;
  el("path", {
    d: "M8 -6 L19 0 L8 6 Z", fill: "#222", transform: `rotate(${angle})`,
  }, group);
  // A pawn: head over a wide base, so a visitor never reads as a tile or a target.
  el("path", {
    d: "M-9 9 Q-9 1 -4 -1 A5 5 0 1 1 4 -1 Q9 1 9 9 Z",
    fill: SEAT_COLOURS[seat], stroke: mine ? "#0b61c7" : "#222", "stroke-width": mine ? 3 : 1.5,
  }, group);
}

function drawTarget(svg, place, chosen = false) {
  const [x, y] = visitorXY(place);
  const group = el("g", {
    transform: `translate(${x} ${y})`, class: chosen ? "target chosen" : "target", "data-position": place,
  }, svg);
  el("circle", {
    r: 8, fill: chosen ? "#0b61c7" : "#fff", stroke: "#0b61c7", "stroke-width": 2,
    "stroke-dasharray": chosen ? "none" : "3 2",
  }, group);
  if (!chosen) makeChoosable(group, `Place a visitor at ${place}`, () => choosePlace(place));
}

function makeChoosable(node, label, action) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.classList.add("choosable");
  node.addEventListener("click", action);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      action();
    }
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

function moveItems(line) {
  return line.map((move) => {
    const item = document.createElement("li");
    const code = document.createElement("code");
    code.textContent = move;
    item.appendChild(code);
    return item;
  });
}

function previewFace(text) {
  const holder = document.createElementNS(SVG, "g");
  drawTileFace(holder, text, TILE, false);
  return [...holder.childNodes];
}

// ``plant`` is the plant this tile makes ("*" for the tile just taken), or null.
function handTile(text, plant, taken = false) {
  const node = document.createElement(plant ? "button" : "span");
  node.className = taken ? "hand-tile taken" : "hand-tile";
  const svg = el("svg", { viewBox: "-30 -30 60 60", width: 56, height: 56, "aria-hidden": "true" }, node);
  drawTileFace(svg, text, 56, false);
  const label = document.createElement("span");
  label.className = "visually-hidden";
  label.textContent = (plant ? WORDS.plant(text) : tileName(text)) + (taken ? ` (${WORDS.justTaken})` : "");
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

function render() {
  const { position, legal, left } = current();
  drawGarden(position, legal);
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
    button(`Confirm ${selection.move}`, { class: "button-primary", "data-action": "confirm" }, confirmMove);
  }
  if (selection) button("Cancel", { "data-action": "cancel" }, stepBack);

  movesList.replaceChildren(...moveItems(moves));
  statusLine.textContent = statusText(left);
  undoButton.disabled = busy || finished || moves.length === 0;
  submitButton.disabled = busy || finished || left > 0;
  giveUpButton.disabled = busy || data.line !== null;
}

function statusText(left) {
  if (finished) return "Submitted.";
  if (!selection) {
    return left > 0
      ? `${left} visitor${left === 1 ? "" : "s"} left: choose a free position (circles around the garden).`
      : "All your visitors are placed: submit, or undo to try something else.";
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
  return `Confirm ${selection.move}?`;
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
    history.push({ position: reply.position, legal: reply.legal_moves, left: reply.left });
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
    notes.push(`Puzzle rating ${reply.rating.before} → ${reply.rating.after}`);
    setText("puzzle-user-rating", reply.rating.display);
  }
  if (reply.streak !== null && reply.streak !== undefined) {
    const days = `${reply.streak} day${reply.streak === 1 ? "" : "s"}`;
    notes.push(data.is_today ? `Streak: ${days}` : `Streak: ${days} (only today's puzzle counts)`);
    setText("puzzle-streak", days);
  }
  for (const note of notes) {
    const p = document.createElement("p");
    p.textContent = note;
    resultBox.appendChild(p);
  }
  if (!reply.solved) button("Try again", {}, tryAgain, resultBox);
  if (reply.line) data.line = reply.line;
  if (reply.line && lineAtOnce) showLine(reply.line);
  else if (reply.line && !lineBox.querySelector("li")) {
    const show = button("Show an optimal line", {}, () => {
      showLine(reply.line);
      show.remove();
    }, resultBox);
  }
}

function setText(id, text) {
  const node = document.getElementById(id);
  if (node) node.textContent = text;
}

function showLine(line) {
  const heading = document.createElement("h3");
  heading.textContent = "One optimal line";
  const list = document.createElement("ol");
  list.className = "puzzle-moves";
  list.replaceChildren(...moveItems(line));
  lineBox.replaceChildren(heading, list);
  button("Play it on the board", { "data-action": "play-line" }, () => playLine(line), lineBox);
}

// Replays the revealed line move by move, so each step can be undone and looked at.
async function playLine(line) {
  tryAgain();
  busy = true;
  try {
    for (const move of line) {
      const reply = await post(data.urls.play, { seat: data.seat, moves: [...moves, move] });
      moves.push(move);
      history.push({ position: reply.position, legal: reply.legal_moves, left: reply.left });
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
  finished = false;
  resultBox.replaceChildren();
  render();
}

async function submit() {
  busy = true;
  render();
  try {
    const reply = await post(data.urls.submit, { seat: data.seat, moves });
    finished = true;
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
  render();
  try {
    const reply = await post(data.urls.give_up, {});
    finished = true;
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
giveUpButton.addEventListener("click", giveUp);
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") stepBack();
});
if (data.line) showLine(data.line);
render();
