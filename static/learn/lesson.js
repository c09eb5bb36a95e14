// A lesson: one position at a time, each asking for one thing. The learner's move is built
// from the legal steps the server sent (the engine's), then posted to the step's check URL,
// where the engine plays it and the step's goal judges it (learn/services.py). A take is
// sent on its own first, so the server can show the taker the tile, as at the table.
// Progress: the server keeps a signed-in player's; everyone's is also kept in this browser.
// Texts go through Django's JavaScript catalogue (gettext, ngettext, pgettext, interpolate:
// globals base.html loads); the steps' own texts come from the server in the page's language.

import { boardOf } from "../board/boards.js";

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

// The game's board object (static/board/<game>.js) draws the board and offers its choices;
// this page gives it the step being played.
const gameBoard = await boardOf(data.game);
const GAME = gameBoard.lesson({
  svg,
  shown: () => shown,
  pick: () => pick,
  choose(next) {
    pick = next;
    render();
  },
  open,
  step,
  sent: () => sent,
  verdict: () => verdict,
  send,
  button,
  prompt,
});

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
