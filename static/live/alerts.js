// Alerts (docs/PAGES.md "Knowing what is happening"): when it becomes your turn, a
// challenge arrives, a game of yours starts or a correspondence opponent moves, the tab's
// title changes, a short chime plays (unless the "sound" preference is off: body
// data-sound, set from the account or, for visitors, by static/js/preferences.js), and a
// browser notification shows if the player allowed them and the page is not in front.
//
// Included by base.html for signed-in players, where it opens the player's own socket
// (/ws/me/, docs/PROTOCOL.md "The player's socket") and shows its events as small notes
// at the corner of every page; the game page also hands it its frames (gameFrameSeen).
// The events carry facts (names, titles, time controls as the server writes them); the
// sentences around them come from Django's JavaScript catalogue (base.html).
/* global gettext, pgettext, interpolate */

import { liveSocket } from "./socket.js";
import { timeControlText } from "./words.js";

const baseTitle = document.title;
const TURN_MARK = `▶ ${gettext("Your turn")} · `;
let unseen = 0;
let yourTurn = false;
let audio = null;

// What this tab has already alerted, kept across its pages: a challenge waiting on
// every page is shown on each, but chimes once.
const STORE = "topiary-alerted";
function alerted() {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(STORE) || "[]"));
  } catch {
    return new Set();
  }
}
function remember(tag) {
  const tags = [...alerted(), tag].slice(-200);
  try {
    sessionStorage.setItem(STORE, JSON.stringify(tags));
  } catch {
    // Storage refused (private browsing): alerts may repeat on the next page, no more.
  }
}

const inFront = () => document.visibilityState === "visible" && document.hasFocus();

function showTitle() {
  document.title = `${unseen ? `(${unseen}) ` : ""}${yourTurn ? TURN_MARK : ""}${baseTitle}`;
}

function seenNow() {
  if (!inFront() || !unseen) return;
  unseen = 0;
  showTitle();
}
document.addEventListener("visibilitychange", seenNow);
window.addEventListener("focus", seenNow);

// A short two-note chime made on the spot (no sound file to fetch).
export function chime() {
  if (document.body.dataset.sound === "0") return;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  try {
    audio ??= new Context();
    const start = audio.currentTime + 0.01;
    [660, 880].forEach((pitch, i) => {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = pitch;
      const at = start + i * 0.12;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.25);
      tone.connect(gain).connect(audio.destination);
      tone.start(at);
      tone.stop(at + 0.3);
    });
  } catch {
    // A browser that will not play before the first click: the title and note still say it.
  }
}

function notify(title, body, url, tag) {
  if (!("Notification" in window) || Notification.permission !== "granted" || inFront()) return;
  try {
    const icon = document.querySelector("link[rel=icon]")?.href;
    const note = new Notification(title, { body, tag, icon });
    note.addEventListener("click", () => {
      window.focus();
      if (url && location.pathname !== url) location.assign(url);
      note.close();
    });
  } catch {
    // Some mobile browsers allow notifications only from a service worker.
  }
}

// Alert once per tag: the title counts it while the page is not in front, a chime, a notification.
export function alertPlayer({ tag, title, body = "", url = null }) {
  if (alerted().has(tag)) return false;
  remember(tag);
  if (!inFront()) unseen += 1;
  showTitle();
  chime();
  notify(title, body, url, tag);
  return true;
}

// ---------------------------------------------------------------- the game page

let turnKnown = false;

// The game page's frames: the title says "Your turn" while it is, and the turn coming to
// you (not the page opening on it) alerts.
export function gameFrameSeen(frame) {
  if (!["state", "move", "takeback"].includes(frame.type ?? "state")) return;
  const mine = frame.status === "active" && frame.you !== null && frame.to_move === frame.you;
  // The page opening on a turn alerts only at a game's first move (just paired or started).
  if (mine && !yourTurn && (turnKnown || frame.ply === 0)) {
    alertPlayer({
      tag: `turn-${frame.game}-${frame.ply}`,
      title: gettext("Your turn"),
      body: interpolate(gettext("%(game)s: your opponent has moved."), { game: baseTitle.split(" · ")[0] }, true),
      url: location.pathname,
    });
  }
  turnKnown = true;
  yourTurn = mine;
  showTitle();
}

// ---------------------------------------------------------------- notes on every page

let notes = null;

function noteBox() {
  if (!notes) {
    notes = document.createElement("div");
    notes.className = "alert-notes";
    notes.setAttribute("aria-live", "polite");
    notes.setAttribute("aria-label", gettext("Alerts"));
    document.body.append(notes);
  }
  return notes;
}

// A button posting a form (with the page's CSRF token): the lobby's Join/Accept/Decline too.
export function postButton(action, label, primary) {
  const form = document.createElement("form");
  form.method = "post";
  form.action = action;
  const token = document.createElement("input");
  token.type = "hidden";
  token.name = "csrfmiddlewaretoken";
  token.value = document.querySelector("input[name=csrfmiddlewaretoken]")?.value ?? "";
  const button = document.createElement("button");
  button.type = "submit";
  button.className = `button button-small${primary ? " button-primary" : ""}`;
  button.textContent = label;
  form.append(token, button);
  return form;
}

function showNote(key, text, ...actions) {
  const box = noteBox();
  box.querySelector(`[data-note="${key}"]`)?.remove();
  const note = document.createElement("div");
  note.className = "alert-note";
  note.dataset.note = key;
  note.setAttribute("role", "status");
  const words = document.createElement("p");
  words.textContent = text;
  const close = document.createElement("button");
  close.type = "button";
  close.className = "button button-small alert-close";
  close.setAttribute("aria-label", gettext("Dismiss"));
  close.textContent = "×";
  close.addEventListener("click", () => note.remove());
  const row = document.createElement("div");
  row.className = "cluster";
  row.append(...actions, close);
  note.append(words, row);
  box.append(note);
}

function openLink(url, label) {
  const link = document.createElement("a");
  link.className = "button button-small button-primary";
  link.href = url;
  link.textContent = label;
  return link;
}

const onPage = (url) => location.pathname === url;
const mode = (event) => `${timeControlText(event.time_control)} · ${event.rated ? pgettext("a game", "rated") : pgettext("a game", "casual")}`;

function challenge(event) {
  const text = interpolate(gettext("%(player)s challenges you: %(game)s, %(mode)s."),
    { player: event.from, game: event.title.split(" #")[0], mode: mode(event) }, true);
  showNote(
    `challenge-${event.game}`,
    text,
    postButton(`/game/${event.game}/join`, pgettext("a challenge", "Accept"), true),
    postButton(`/game/${event.game}/leave`, pgettext("a challenge", "Decline"), false),
  );
  alertPlayer({ tag: `challenge-${event.game}`, title: gettext("A challenge"), body: text, url: event.url });
}

const EVENTS = {
  challenges: (frame) => frame.challenges.forEach(challenge),
  challenge,
  challenge_gone: (event) => noteBox().querySelector(`[data-note="challenge-${event.game}"]`)?.remove(),
  game_started(event) {
    noteBox().querySelector(`[data-note="challenge-${event.game}"]`)?.remove();
    if (onPage(event.url)) return;
    const text = interpolate(gettext("Your game has started: %(game)s against %(opponents)s, %(mode)s."),
      { game: event.title, opponents: event.opponents.join(", "), mode: mode(event) }, true);
    showNote(`game-${event.game}`, text, openLink(event.url, gettext("Go to the game")));
    alertPlayer({ tag: `started-${event.game}`, title: gettext("Your game has started"), body: text, url: event.url });
  },
  turn(event) {
    // On that game's own page the game's frames say it already.
    if (onPage(event.url)) return;
    const text = interpolate(gettext("Your turn in %(game)s: your opponent has moved."), { game: event.title }, true);
    showNote(`game-${event.game}`, text, openLink(event.url, pgettext("go to your game and move", "Play")));
    alertPlayer({ tag: `turn-${event.game}-${event.ply}`, title: gettext("Your turn"), body: text, url: event.url });
  },
};

// ---------------------------------------------------------------- the permission button

function wirePermission(button) {
  const state = button.parentElement.querySelector("[data-notify-state]");
  const show = () => {
    const supported = "Notification" in window;
    const permission = supported ? Notification.permission : "unsupported";
    button.hidden = permission !== "default";
    if (state) {
      state.textContent = {
        granted: gettext("Notifications are on in this browser."),
        denied: gettext("Notifications are blocked in this browser's site settings."),
        unsupported: gettext("This browser cannot show notifications."),
        default: "",
      }[permission];
    }
  };
  // Asked for only when the player presses the button, never on load.
  button.addEventListener("click", async () => {
    await Notification.requestPermission();
    show();
  });
  show();
}

document.querySelectorAll("[data-notify-permission]").forEach(wirePermission);

if (document.body.dataset.signedIn === "1") {
  liveSocket("/ws/me/", {
    quiet: true,
    onMessage: (frame) => EVENTS[frame.type]?.(frame),
  });
}
