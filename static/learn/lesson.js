// A lesson: one position at a time, each asking for one thing. The learner's move is built
// from the legal steps the server sent (the engine's), then posted to the step's check URL,
// where the engine plays it and the step's goal judges it (learn/services.py). A take is
// sent on its own first, so the server can show the taker the tile, as at the table.
// Progress: the server keeps a signed-in player's; everyone's is also kept in this browser.

import * as topiary from "../board/topiary.js";
import { activate } from "../board/common.js";
import { drawBoard as drawWizards } from "../board/wizards_garden.js";
import { labelCells } from "./coordinates.js";

const data = JSON.parse(document.getElementById("lesson-data").textContent);
const csrf = document.querySelector("input[name=csrfmiddlewaretoken]").value;
const $ = (id) => document.getElementById(id);
const svg = $("lesson-board");
const STORE = "topiary-learn";

// ------------------------------------------------------------------ progress

function stored() {
  try {
    return JSON.parse(localStorage.getItem(STORE)) ?? {};
  } catch {
    return {};
  }
}
const solved = new Set([...data.solved, ...(stored()[data.game] ?? [])]);
function remember(key) {
  solved.add(key);
  const all = stored();
  all[data.game] = [...solved];
  try {
    localStorage.setItem(STORE, JSON.stringify(all));
  } catch {
    // Private windows may refuse storage: the page still works, without memory.
  }
}

// ------------------------------------------------------------------ the step being played

let index = Math.max(0, data.steps.findIndex((step) => !solved.has(step.key)));
let shown = null; // {position, legal_steps, sight_lines}: what the board shows now
let sent = []; // steps the server has already played (a take waiting for its plant)
let pick = null; // what is chosen and not sent: {place} (Topiary) or {cell} (Wizards' Garden)
let verdict = null; // the server's answer once the move is finished
let busy = false;

const step = () => data.steps[index];

function start(number) {
  index = number;
  const { position, legal_steps, sight_lines } = step();
  shown = { position, legal_steps, sight_lines };
  sent = [];
  pick = null;
  verdict = null;
  render();
}

async function send(steps) {
  busy = true;
  render();
  try {
    const response = await fetch(data.check_urls[index], {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify({ steps }),
      credentials: "same-origin",
    });
    const reply = await response.json();
    if (!response.ok) throw new Error(reply.error || `HTTP ${response.status}`);
    shown = { position: reply.position, legal_steps: reply.legal_steps ?? [], sight_lines: reply.sight_lines };
    pick = null;
    if (reply.status === "continue") {
      sent = steps;
    } else {
      verdict = reply;
      if (reply.status === "right") remember(step().key);
    }
  } catch (error) {
    verdict = { status: "error", message: error.message };
  } finally {
    busy = false;
    render();
  }
}

// ------------------------------------------------------------------ the boards

function button(label, attrs, action) {
  const node = document.createElement("button");
  node.type = "button";
  node.textContent = label;
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  node.addEventListener("click", action);
  node.disabled = busy;
  return node;
}

const open = () => !busy && !verdict;

const TOPIARY = {
  draw() {
    const legal = shown.legal_steps;
    const pending = shown.position.pending ?? null;
    const places = open() && !pending ? [...new Set(legal.map((s) => s.split(" ")[0]))] : [];
    const takeable = new Set(
      pick ? legal.filter((s) => s.startsWith(`${pick.place} `)).map((s) => s.split(" ")[1]) : [],
    );
    topiary.drawGarden(svg, shown.position, {
      sightLines: shown.sight_lines,
      focus: pick?.place ?? pending?.position ?? verdictFocus(),
      targets: pick ? [pick.place] : places,
      chosen: pick?.place ?? null,
      seatName: (seat) => ["Red", "Blue", "Purple", "Yellow"][seat],
      onCell(group, cell) {
        if (open() && takeable.has(cell)) {
          group.classList.add("takeable");
          activate(group, `Take the face-down tile at ${cell}`, () => send([`${pick.place} ${cell}`]));
        }
        if (pending?.cell === cell) group.classList.add("chosen", "taken-from");
      },
      onVisitor(group) {
        if (Number(group.dataset.seat) === step().seat) group.classList.add("mine");
      },
      onTarget(group, place) {
        if (open()) activate(group, `Place a visitor at ${place}`, () => choosePlace(place));
      },
    });
  },
  choices() {
    const legal = shown.legal_steps;
    const pending = shown.position.pending ?? null;
    const nodes = [];
    if (pending && open()) {
      nodes.push(prompt(`You took the ${topiary.tileName(pending.took)}. Plant one of your four tiles at ${pending.cell}:`));
      const tray = document.createElement("div");
      tray.className = "lesson-hand";
      for (const tile of shown.position.hands[step().seat]) {
        const plant = tile === pending.took ? "=*" : `=${tile}`;
        if (!legal.includes(plant)) continue;
        const node = button("", { class: "hand-tile", "data-plant": tile }, () => send([...sent, plant]));
        node.append(topiary.miniTile(tile, "hand-tile-art"));
        if (tile === pending.took) {
          node.classList.add("taken");
          const badge = document.createElement("span");
          badge.className = "taken-badge";
          badge.setAttribute("aria-hidden", "true");
          badge.textContent = topiary.TAKE_WORDS.justTaken;
          node.append(badge);
        }
        node.setAttribute("aria-label", `Plant the ${topiary.tileName(tile)}${tile === pending.took ? " (just taken)" : ""}`);
        tray.append(node);
      }
      nodes.push(tray);
    } else if (pick && open()) {
      const line = topiary.sightOf(shown.sight_lines, pick.place);
      const canTake = legal.some((s) => s.startsWith(`${pick.place} `));
      nodes.push(prompt(`A visitor at ${pick.place} would score ${line.points} now.${canTake ? " Take a face-down tile from its line (dashed), or place only." : ""}`));
      if (legal.includes(pick.place)) {
        nodes.push(button(topiary.TAKE_WORDS.placeOnly, { "data-action": "place-only", class: "button-primary" }, () => send([pick.place])));
      }
      nodes.push(button("Choose another spot", { "data-action": "cancel" }, () => { pick = null; render(); }));
    } else if (!shown.position.pending) {
      const hand = shown.position.hands[step().seat];
      const tray = document.createElement("div");
      tray.className = "lesson-hand";
      tray.setAttribute("aria-label", "Your hand");
      for (const tile of hand) {
        const art = topiary.miniTile(tile, "hand-tile-art");
        art.classList.add("hand-tile");
        tray.append(art);
      }
      nodes.push(prompt("Your hand:"), tray);
    }
    return nodes;
  },
  idle: "Choose a circle around the garden: its line lights up and the points it would score show.",
  facts: () => "",
  // After a move: what the new visitor sees and scores, as the engine counted it.
  summary() {
    const pos = verdictFocus();
    if (!pos) return "";
    const sight = (shown.sight_lines ?? []).find((line) => line.position === pos);
    if (!sight) return "";
    const seen = sight.seen.map(({ tile }) => topiary.tileName(tile)).join(", ") || "nothing";
    return `Your visitor at ${pos} sees ${seen}: ${sight.points} point${sight.points === 1 ? "" : "s"}.`;
  },
};

function verdictFocus() {
  // After a move, light up the line of the visitor just placed.
  const visitors = shown.position.visitors;
  const placed = Object.keys(visitors).filter((pos) => !(pos in step().position.visitors));
  return verdict ? placed[0] ?? null : null;
}

function wizardsMoves() {
  return shown.legal_steps.map((move) => {
    const [, cell, side, lines] = move.match(/^([a-d][1-4])([WB])(?:\/(.*))?$/);
    return { move, cell, side, lines };
  });
}

const WIZARDS = {
  draw() {
    const moves = open() ? wizardsMoves() : [];
    const cells = new Set(moves.map((m) => m.cell));
    drawWizards(svg, shown.position, {
      previous: verdict ? step().position.board : null,
      seatName: (seat) => (seat === step().seat ? "you" : "your opponent"),
      onCell(group, cell, seed, bed) {
        if (!cells.has(cell)) return;
        bed.classList.add(pick?.cell === cell ? "chosen" : "legal");
        activate(group, `Plant on ${cell}`, () => { pick = { cell }; render(); });
      },
    });
  },
  choices() {
    if (!pick || !open()) return [];
    const nodes = [prompt(`Which side up on ${pick.cell}?`)];
    for (const m of wizardsMoves().filter((x) => x.cell === pick.cell)) {
      const side = m.side === "W" ? "White side up (Dovetail)" : "Black side up (Ravenclaw)";
      nodes.push(button(m.lines ? `${side}, harvest ${m.lines}` : side, { "data-move": m.move }, () => send([m.move])));
    }
    nodes.push(button("Choose another bed", { "data-action": "cancel" }, () => { pick = null; render(); }));
    return nodes;
  },
  idle: "Choose a highlighted bed (next to a seed) to plant on.",
  facts() {
    const [mine, theirs] = [step().seat, 1 - step().seat].map((seat) => {
      const { W, B } = shown.position.harvested[seat];
      return W + B;
    });
    return `Flowers: you ${mine}, your opponent ${theirs}.`;
  },
  summary: () => "",
};

const GAME = { topiary: TOPIARY, wizards_garden: WIZARDS }[data.game];

function choosePlace(place) {
  pick = { place };
  render();
}

function prompt(text) {
  const p = document.createElement("p");
  p.className = "lesson-prompt";
  p.textContent = text;
  return p;
}

// ------------------------------------------------------------------ the page

function renderSteps() {
  $("lesson-steps").replaceChildren(...data.steps.map((s, i) => {
    const li = document.createElement("li");
    const node = button(s.title, { "data-step": s.key }, () => start(i));
    node.disabled = false;
    if (i === index) node.setAttribute("aria-current", "step");
    if (solved.has(s.key)) {
      li.classList.add("solved");
      const mark = document.createElement("span");
      mark.className = "solved-mark";
      mark.textContent = " ✓";
      mark.setAttribute("aria-label", "solved");
      node.append(mark);
    }
    li.append(node);
    return li;
  }));
  $("lesson-count").textContent = `${[...solved].filter((k) => data.steps.some((s) => s.key === k)).length} of ${data.steps.length} solved`;
}

function renderVerdict() {
  const box = $("lesson-verdict");
  box.dataset.verdict = verdict?.status ?? "";
  box.replaceChildren();
  if (!verdict) return;
  const words = { right: "Right!", wrong: "Not quite.", error: "That did not work:" }[verdict.status];
  const strong = document.createElement("strong");
  strong.textContent = `${words} `;
  box.append(strong, verdict.message);
  const summary = verdict.status === "error" ? "" : GAME.summary();
  if (summary) {
    const line = document.createElement("p");
    line.className = "lesson-summary";
    line.textContent = summary;
    box.append(line);
  }
  const actions = document.createElement("p");
  actions.className = "cluster";
  if (verdict.status !== "right") {
    actions.append(button("Try again", { "data-action": "retry", class: "button-primary" }, () => start(index)));
  } else if (index + 1 < data.steps.length) {
    actions.append(button("Next", { "data-action": "next", class: "button-primary" }, () => start(index + 1)));
  } else {
    const done = document.createElement("span");
    done.className = "lesson-done";
    done.textContent = "Lesson complete. ";
    actions.append(done);
    const play = document.createElement("a");
    play.className = "button button-primary";
    play.href = data.play_url;
    play.textContent = "Play a game";
    actions.append(play);
  }
  box.append(actions);
  // On a phone the panel is under the board: bring the answer into view.
  box.scrollIntoView({ block: "nearest" });
}

function render() {
  const current = step();
  $("lesson-number").textContent = `Step ${index + 1} of ${data.steps.length}`;
  $("lesson-title").textContent = current.title;
  $("lesson-task").textContent = current.task;
  $("lesson-facts").textContent = GAME.facts();
  GAME.draw();
  labelCells(svg, data.game);
  const choices = GAME.choices();
  if (open() && !pick && !shown.position.pending) choices.unshift(prompt(GAME.idle));
  $("lesson-choice").replaceChildren(...choices);
  renderVerdict();
  renderSteps();
}

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && pick && open()) {
    pick = null;
    render();
  }
});
start(index);
