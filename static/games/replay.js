// Replay of a finished game: step through every ply with the whole deal revealed.
// The server replayed the record through the engine and embedded every frame
// (full position, score, sight lines) as JSON; this module only draws them.

const SVG = "http://www.w3.org/2000/svg";

// Okabe-Ito colours, one per tile type, with a glyph so hue is never the only cue.
const TYPES = {
  E: { name: "Elephant", fill: "#E69F00", ink: "#000" },
  H: { name: "Polyhedron", fill: "#56B4E9", ink: "#000" },
  N: { name: "Swan", fill: "#009E73", ink: "#fff" },
  O: { name: "Pom Pom", fill: "#F0E442", ink: "#000" },
  P: { name: "Pyramid", fill: "#0072B2", ink: "#fff" },
  R: { name: "T-Rex", fill: "#D55E00", ink: "#fff" },
  S: { name: "Spiral", fill: "#CC79A7", ink: "#000" },
  W: { name: "Whale", fill: "#000000", ink: "#fff" },
};
const SEAT_COLOURS = ["#c0392b", "#2e86de", "#f5b041", "#8e44ad"];
const DIRECTIONS = {
  N: [0, 1], NE: [1, 1], E: [1, 0], SE: [1, -1], S: [0, -1], SW: [-1, -1], W: [-1, 0], NW: [-1, 1],
};

function el(name, attrs = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function html(name, attrs = {}, text) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function glyph(type, x, y, colour) {
  // A small shape per type, drawn in the tile's ink colour.
  const r = 7;
  const shapes = {
    E: () => el("circle", { cx: x, cy: y, r }),
    H: () => el("polygon", { points: hexagon(x, y, r) }),
    N: () => el("polygon", { points: `${x},${y - r} ${x + r},${y + r} ${x - r},${y + r}` }),
    O: () => el("circle", { cx: x, cy: y, r: r - 2, "stroke-width": 3, fill: "none" }),
    P: () => el("polygon", { points: `${x},${y - r} ${x + r},${y + r - 2} ${x - r},${y + r - 2}`, fill: "none", "stroke-width": 2 }),
    R: () => el("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, transform: `rotate(45 ${x} ${y})` }),
    S: () => el("path", { d: `M${x - r},${y} a${r / 2},${r / 2} 0 0 1 ${r},0 a${r / 2},${r / 2} 0 0 0 ${r},0`, fill: "none", "stroke-width": 2.5 }),
    W: () => el("rect", { x: x - r, y: y - r / 2, width: 2 * r, height: r, rx: r / 2 }),
  };
  const shape = shapes[type]();
  if (!shape.hasAttribute("fill")) shape.setAttribute("fill", colour);
  shape.setAttribute("stroke", colour);
  shape.setAttribute("aria-hidden", "true");
  return shape;
}

function hexagon(x, y, r) {
  return Array.from({ length: 6 }, (_, i) => {
    const angle = (Math.PI / 3) * i;
    return `${(x + r * Math.cos(angle)).toFixed(1)},${(y + r * Math.sin(angle)).toFixed(1)}`;
  }).join(" ");
}

// ---------------------------------------------------------------- Topiary

const TILE = 60;
const GAP = 6;
const STEP = TILE + GAP;
const MARGIN = 66;

function cellCentre(cell) {
  const file = cell.charCodeAt(0) - 97;
  const rank = Number(cell.slice(1));
  return [MARGIN + file * STEP + TILE / 2, MARGIN + (5 - rank) * STEP + TILE / 2];
}

function visitorSpot(position) {
  const [cell, direction] = position.split(":");
  const [df, dr] = DIRECTIONS[direction];
  const [x, y] = cellCentre(cell);
  const reach = df && dr ? 0.58 : 0.78;
  return [x - df * STEP * reach, y + dr * STEP * reach, df, -dr];
}

function drawTile(svg, cell, text, marks) {
  const [cx, cy] = cellCentre(cell);
  const x = cx - TILE / 2;
  const y = cy - TILE / 2;
  const group = el("g", { class: "tile", "data-cell": cell });
  if (text === ".") {
    // The gap of a take waiting for its plant (the step between take and plant).
    group.classList.add("gap");
    group.append(el("rect", { x: x + 2, y: y + 2, width: TILE - 4, height: TILE - 4, rx: 6, fill: "#e9e2cf", stroke: "#8a6d3b", "stroke-width": 1.5, "stroke-dasharray": "5 3" }));
    group.append(el("title", {}, `${cell}: taken, the tile to plant goes here`));
    svg.append(group);
    return;
  }
  const faceUp = text === text.toUpperCase();
  const type = TYPES[text[0].toUpperCase()];
  const value = text[1];
  if (faceUp) {
    group.append(el("rect", { x, y, width: TILE, height: TILE, rx: 6, fill: type.fill, stroke: "#1c2420" }));
    group.append(el("text", { x: cx + 8, y: cy + 12, "text-anchor": "middle", "font-size": 30, "font-weight": 700, fill: type.ink }, value));
    group.append(glyph(text[0], x + 13, y + 13, type.ink));
    group.append(el("title", {}, `${cell}: ${type.name} ${value}, face up`));
  } else {
    // Face down, identity revealed because the game is over: shown small and dimmed.
    group.append(el("rect", { x, y, width: TILE, height: TILE, rx: 6, fill: "url(#hedge)", stroke: "#1f4a27" }));
    group.append(el("text", { x: cx, y: cy + 6, "text-anchor": "middle", "font-size": 16, fill: "#e6f0e7", opacity: 0.75 }, text.toUpperCase()));
    group.append(el("title", {}, `${cell}: face down (${type.name} ${value})`));
  }
  if (marks.inLine) group.append(el("rect", { x: x - 2, y: y - 2, width: TILE + 4, height: TILE + 4, rx: 8, fill: "none", stroke: marks.colour, "stroke-width": 2, "stroke-dasharray": "4 3", class: "line-mark" }));
  if (marks.seen) group.append(el("rect", { x: x - 4, y: y - 4, width: TILE + 8, height: TILE + 8, rx: 9, fill: "none", stroke: marks.colour, "stroke-width": 4, class: "seen-mark" }));
  svg.append(group);
}

function drawVisitor(svg, visitor, players, selected, onSelect) {
  const [x, y, dx, dy] = visitorSpot(visitor.position);
  const colour = SEAT_COLOURS[visitor.seat];
  const group = el("g", {
    class: `visitor${selected ? " selected" : ""}`,
    "data-position": visitor.position,
    "aria-label": `Visitor of ${players[visitor.seat]} at ${visitor.position}: ${visitor.points} points`,
  });
  const length = Math.hypot(dx, dy);
  const tipX = x + (dx / length) * 20;
  const tipY = y + (dy / length) * 20;
  group.append(el("line", { x1: x, y1: y, x2: tipX, y2: tipY, stroke: "#1c2420", "stroke-width": 3, "marker-end": "url(#arrow)" }));
  group.append(el("circle", { cx: x, cy: y, r: selected ? 11 : 9, fill: colour, stroke: "#fff", "stroke-width": 2.5 }));
  group.append(el("circle", { cx: x, cy: y, r: selected ? 13 : 11, fill: "none", stroke: "#1c2420", "stroke-width": 1 }));
  if (selected) {
    // The score the selected visitor makes stands beside it.
    const label = el("text", { x: x - dx * 22, y: y - dy * 22 + 4, "text-anchor": "middle", "font-size": 13, "font-weight": 700, class: "visitor-points", fill: "#1c2420", stroke: "#fbfaf6", "stroke-width": 3, "paint-order": "stroke" }, String(visitor.points));
    group.append(label);
  }
  group.append(el("title", {}, `${players[visitor.seat]}: ${visitor.position}, ${visitor.points} points`));
  group.addEventListener("mouseenter", () => onSelect(visitor.position));
  svg.append(group);
}

function topiaryBoard(frame, players, selectedPosition, onSelect) {
  const size = MARGIN * 2 + 5 * STEP - GAP;
  const svg = el("svg", { viewBox: `0 0 ${size} ${size}`, class: "garden", role: "img", "aria-label": `Garden after ply ${frame.ply}` });
  const defs = el("defs");
  const pattern = el("pattern", { id: "hedge", width: 8, height: 8, patternUnits: "userSpaceOnUse" });
  pattern.append(el("rect", { width: 8, height: 8, fill: "#2f6b3a" }));
  pattern.append(el("path", { d: "M0,8 L8,0", stroke: "#3d7f49", "stroke-width": 2 }));
  const marker = el("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" });
  marker.append(el("path", { d: "M0,0 L10,5 L0,10 z", fill: "#1c2420" }));
  defs.append(pattern, marker);
  svg.append(defs);
  const selected = frame.visitors.find((v) => v.position === selectedPosition);
  const line = new Set(selected ? selected.line : []);
  const seen = new Set(selected ? selected.seen.map((s) => s.cell) : []);
  const colour = selected ? SEAT_COLOURS[selected.seat] : "none";
  frame.position.garden.forEach((row, r) => {
    row.forEach((text, f) => {
      const cell = `${"abcde"[f]}${5 - r}`;
      drawTile(svg, cell, text, { inLine: line.has(cell), seen: seen.has(cell), colour });
    });
  });
  for (const visitor of frame.visitors) {
    drawVisitor(svg, visitor, players, visitor.position === selectedPosition, onSelect);
  }
  return svg;
}

function handsList(frame, players) {
  const list = html("ul", { class: "replay-hands" });
  const pending = frame.position.pending;
  frame.position.hands.forEach((hand, seat) => {
    const item = html("li");
    item.append(html("span", { class: "seat-dot", style: `background:${SEAT_COLOURS[seat]}` }));
    // Between a take and its plant the taker holds four tiles, the one just taken among them.
    const holding = pending && hand.length > 3 && pending.took ? ` (just took ${pending.took})` : "";
    item.append(document.createTextNode(` ${players[seat]}: hand ${hand.join(" ")}${holding} · ${frame.position.unplaced[seat]} visitors left`));
    list.append(item);
  });
  return list;
}

// ---------------------------------------------------------------- Wizards' Garden

function gardenBoard(frame, players) {
  const cell = 70;
  const size = cell * 4 + 20;
  const svg = el("svg", { viewBox: `0 0 ${size} ${size}`, class: "wizards-board", role: "img", "aria-label": `Board after ply ${frame.ply}` });
  frame.position.board.forEach((row, r) => {
    row.forEach((seed, f) => {
      const name = `${"abcd"[f]}${4 - r}`;
      const x = 10 + f * cell;
      const y = 10 + r * cell;
      const group = el("g", { "data-cell": name });
      group.append(el("rect", { x, y, width: cell - 4, height: cell - 4, rx: 8, fill: "#8a6a45", stroke: "#5b4127" }));
      if (seed !== ".") {
        group.append(el("circle", { cx: x + cell / 2 - 2, cy: y + cell / 2 - 2, r: 24, fill: seed === "W" ? "#fbfaf6" : "#1c2420", stroke: seed === "W" ? "#1c2420" : "#fbfaf6", "stroke-width": 3 }));
      }
      group.append(el("title", {}, `${name}: ${seed === "W" ? "white seed (Dovetail)" : seed === "B" ? "black seed (Ravenclaw)" : "empty"}`));
      svg.append(group);
    });
  });
  return svg;
}

function gardenFacts(frame, players) {
  const list = html("ul", { class: "replay-hands" });
  list.append(html("li", {}, `Seeds in the basket: ${frame.position.basket}`));
  list.append(html("li", {}, `Wizard's Staff: ${frame.position.staff === null ? "beside the board" : players[frame.position.staff]}`));
  return list;
}

// ---------------------------------------------------------------- the page

// Each game's score columns at a ply (a game without an entry shows each seat's total).
const SCORE_COLUMNS = {
  topiary: [["Visitors", "visitors"], ["Bonus", "bonus"], ["Hand", "hand"], ["Total", "total"]],
  wizards_garden: [["W", "W"], ["B", "B"], ["Flowers", "total"]],
};

function scoreTable(frame, players, game) {
  const table = html("table", { class: "table replay-score" });
  const columns = SCORE_COLUMNS[game] ?? [["Total", "total"]];
  const head = ["Player", ...columns.map(([label]) => label)];
  const thead = html("thead");
  const headRow = html("tr");
  for (const label of head) headRow.append(html("th", { scope: "col" }, label));
  thead.append(headRow);
  const tbody = html("tbody");
  for (const entry of frame.score.scores) {
    const row = html("tr");
    const values = columns.map(([, key]) => entry[key]);
    const name = html("td");
    name.append(html("span", { class: "seat-dot", style: `background:${SEAT_COLOURS[entry.seat]}` }));
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

  frames.slice(1).forEach((frame) => {
    const item = html("li");
    // A take and its plant are two steps, listed one under the other.
    const button = html("button", { type: "button", class: "link-button", "data-ply": frame.ply }, `${players[frame.mover]}: ${frame.move}`);
    button.addEventListener("click", () => show(frame.ply));
    if (frame.step) item.classList.add(`step-${frame.step}`);
    item.append(button);
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
    wizards_garden: (frame) => [gardenBoard(frame, players), gardenFacts(frame, players)],
  };
  const positionText = (frame) => [html("pre", {}, JSON.stringify(frame.position, null, 1))];

  function drawBoard() {
    board.replaceChildren(...(boards[game] ?? positionText)(frames[ply]));
  }

  function draw() {
    const frame = frames[ply];
    drawBoard();
    if (visitorList) {
      visitorList.replaceChildren();
      for (const visitor of frame.visitors) {
        const item = html("li", { "data-position": visitor.position, class: visitor.position === selected ? "selected" : "" });
        const button = html("button", { type: "button", class: "link-button" });
        button.append(html("span", { class: "seat-dot", style: `background:${SEAT_COLOURS[visitor.seat]}` }));
        const sees = visitor.seen.length ? visitor.seen.map((s) => `${s.tile} (${s.cell})`).join(", ") : "nothing";
        button.append(document.createTextNode(` ${visitor.position} · ${players[visitor.seat]} · sees ${sees} · ${visitor.points} points`));
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
    plyLabel.textContent = `Ply ${ply} of ${last}${frame.move ? ` · ${players[frame.mover]}: ${frame.move}` : " · the deal"}`;
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
