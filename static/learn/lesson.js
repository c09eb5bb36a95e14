// A lesson: one position at a time, each asking for one thing. The learner's move is built
// from the legal steps the server sent (the engine's), then posted to the step's check URL,
// where the engine plays it and the step's goal judges it (learn/services.py). A take is
// sent on its own first, so the server can show the taker the tile, as at the table.
// Progress: the server keeps a signed-in player's; everyone's is also kept in this browser.
// Texts go through Django's JavaScript catalogue (gettext, ngettext, pgettext, interpolate:
// globals base.html loads); the steps' own texts come from the server in the page's language.

import * as topiary from "../board/topiary.js";
import { activate } from "../board/common.js";
import { drawBoard as drawWizards } from "../board/wizards_garden.js";

const data = JSON.parse(document.getElementById("lesson-data").textContent);
const csrf = document.querySelector("input[name=csrfmiddlewaretoken]").value;
const $ = (id) => document.getElementById(id);
const svg = $("lesson-board");
const STORE = "topiary-learn";
// Fills a translated text's %(name)s placeholders.
const say = (format, values) => interpolate(format, values, true);

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

// The seats' colours, as the pawns' titles name them.
const SEAT_COLOURS = [
  pgettext("seat colour", "Red"),
  pgettext("seat colour", "Blue"),
  pgettext("seat colour", "Purple"),
  pgettext("seat colour", "Yellow"),
];

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
      seatName: (seat) => SEAT_COLOURS[seat],
      onCell(group, cell) {
        if (open() && takeable.has(cell)) {
          group.classList.add("takeable");
          activate(group, say(gettext("Take the face-down tile at %(cell)s"), { cell }), () => send([`${pick.place} ${cell}`]));
        }
        if (pending?.cell === cell) group.classList.add("chosen", "taken-from");
      },
      onVisitor(group) {
        if (Number(group.dataset.seat) === step().seat) group.classList.add("mine");
      },
      onChoose: open() ? choosePlace : null,
    });
  },
  choices() {
    const legal = shown.legal_steps;
    const pending = shown.position.pending ?? null;
    const nodes = [];
    if (pending && open()) {
      nodes.push(prompt(say(gettext("You took the %(tile)s. Plant one of your four tiles at %(cell)s:"), { tile: topiary.tileName(pending.took), cell: pending.cell })));
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
        const label = tile === pending.took ? gettext("Plant the %(tile)s (just taken)") : gettext("Plant the %(tile)s");
        node.setAttribute("aria-label", say(label, { tile: topiary.tileName(tile) }));
        tray.append(node);
      }
      nodes.push(tray);
    } else if (pick && open()) {
      const line = topiary.sightOf(shown.sight_lines, pick.place);
      const canTake = legal.some((s) => s.startsWith(`${pick.place} `));
      const score = say(
        ngettext("A visitor at %(place)s would score %(points)s now.", "A visitor at %(place)s would score %(points)s now.", line.points),
        { place: pick.place, points: line.points },
      );
      nodes.push(prompt(canTake ? `${score} ${gettext("Take a face-down tile from its line (dashed), or place only.")}` : score));
      if (legal.includes(pick.place)) {
        nodes.push(button(topiary.TAKE_WORDS.placeOnly, { "data-action": "place-only", class: "button-primary" }, () => send([pick.place])));
      }
      nodes.push(button(gettext("Choose another spot"), { "data-action": "cancel" }, () => { pick = null; render(); }));
    } else if (!shown.position.pending) {
      const hand = shown.position.hands[step().seat];
      const tray = document.createElement("div");
      tray.className = "lesson-hand";
      tray.setAttribute("aria-label", gettext("Your hand"));
      for (const tile of hand) {
        const art = topiary.miniTile(tile, "hand-tile-art");
        art.classList.add("hand-tile");
        tray.append(art);
      }
      nodes.push(prompt(gettext("Your hand:")), tray);
    }
    return nodes;
  },
  idle: gettext("Choose a circle around the garden: its line lights up and the points it would score show."),
  facts: () => "",
  // After a move: what the new visitor sees and scores, as the engine counted it.
  summary() {
    const pos = verdictFocus();
    if (!pos) return "";
    const sight = (shown.sight_lines ?? []).find((line) => line.position === pos);
    if (!sight) return "";
    const values = { position: pos, points: sight.points };
    if (!sight.seen.length) return say(gettext("Your visitor at %(position)s sees nothing: %(points)s points."), values);
    values.seen = sight.seen.map(({ tile }) => topiary.tileName(tile)).join(", ");
    const format = ngettext(
      "Your visitor at %(position)s sees %(seen)s: %(points)s point.",
      "Your visitor at %(position)s sees %(seen)s: %(points)s points.",
      sight.points,
    );
    return say(format, values);
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
      // The board says "Wizard's Staff: with <name>".
      seatName: (seat) => (seat === step().seat ? pgettext("staff holder", "you") : pgettext("staff holder", "your opponent")),
      onCell(group, cell, seed, bed) {
        if (!cells.has(cell)) return;
        bed.classList.add(pick?.cell === cell ? "chosen" : "legal");
        activate(group, say(gettext("Plant on %(cell)s"), { cell }), () => { pick = { cell }; render(); });
      },
    });
  },
  choices() {
    if (!pick || !open()) return [];
    const nodes = [prompt(say(gettext("Which side up on %(cell)s?"), { cell: pick.cell }))];
    for (const m of wizardsMoves().filter((x) => x.cell === pick.cell)) {
      const white = m.side === "W";
      const label = m.lines
        ? say(white ? gettext("White side up (Dovetail), harvest %(lines)s") : gettext("Black side up (Ravenclaw), harvest %(lines)s"), { lines: m.lines })
        : white ? gettext("White side up (Dovetail)") : gettext("Black side up (Ravenclaw)");
      nodes.push(button(label, { "data-move": m.move }, () => send([m.move])));
    }
    nodes.push(button(gettext("Choose another bed"), { "data-action": "cancel" }, () => { pick = null; render(); }));
    return nodes;
  },
  idle: gettext("Choose a highlighted bed (next to a seed) to plant on."),
  facts() {
    const [mine, theirs] = [step().seat, 1 - step().seat].map((seat) => {
      const { W, B } = shown.position.harvested[seat];
      return W + B;
    });
    return say(gettext("Flowers: you %(mine)s, your opponent %(theirs)s."), { mine, theirs });
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
      mark.setAttribute("aria-label", gettext("solved"));
      node.append(mark);
    }
    li.append(node);
    return li;
  }));
  const count = [...solved].filter((k) => data.steps.some((s) => s.key === k)).length;
  $("lesson-count").textContent = say(gettext("%(solved)s of %(total)s solved"), { solved: count, total: data.steps.length });
}

function renderVerdict() {
  const box = $("lesson-verdict");
  box.dataset.verdict = verdict?.status ?? "";
  box.replaceChildren();
  if (!verdict) return;
  const words = { right: gettext("Right!"), wrong: gettext("Not quite."), error: gettext("That did not work:") }[verdict.status];
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
    actions.append(button(gettext("Try again"), { "data-action": "retry", class: "button-primary" }, () => start(index)));
  } else if (index + 1 < data.steps.length) {
    actions.append(button(pgettext("lesson step", "Next"), { "data-action": "next", class: "button-primary" }, () => start(index + 1)));
  } else {
    const done = document.createElement("span");
    done.className = "lesson-done";
    done.textContent = `${gettext("Lesson complete.")} `;
    actions.append(done);
    const play = document.createElement("a");
    play.className = "button button-primary";
    play.href = data.play_url;
    play.textContent = gettext("Play a game");
    actions.append(play);
  }
  box.append(actions);
  // On a phone the panel is under the board: bring the answer into view.
  box.scrollIntoView({ block: "nearest" });
}

function render() {
  const current = step();
  $("lesson-number").textContent = say(gettext("Step %(number)s of %(total)s"), { number: index + 1, total: data.steps.length });
  $("lesson-title").textContent = current.title;
  $("lesson-task").textContent = current.task;
  $("lesson-facts").textContent = GAME.facts();
  GAME.draw();
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
