// The chat of a page (game, lobby, tournament): docs/PROTOCOL.md, "Chat". It rides on the
// page's one socket (static/live/socket.js, shareSocket); every text a person wrote is shown
// with textContent, never as markup, and links stay plain text. The rooms' titles and why
// one is closed come from the server in the reader's language; the rest from Django's
// JavaScript catalogue (base.html).
/* global gettext, pgettext, interpolate */

import { liveSocket, shareSocket } from "../live/socket.js";

const box = document.querySelector("[data-chat]");
const part = (name) => box.querySelector(`[data-chat-${name}]`);
const roomsBox = part("rooms");
const form = part("form");
const input = form.querySelector("input");
const me = box.dataset.chatMe;
let rooms = new Map();
let muted = new Set();
let maxLength = 140;
let writable = null;
let pending = null;
let gameStatus = null;

// The label of the message box, by the room's name (chat/rooms.py); another room's is its title.
const MESSAGE_TO = {
  players: gettext("Message to the players"),
  spectators: gettext("Message to the spectators"),
  lobby: gettext("Message to the lobby"),
  tournament: gettext("Message to the tournament"),
};

function node(name, className, text) {
  const element = document.createElement(name);
  if (className) element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}

function say(name, text) {
  const element = part(name);
  element.textContent = text ?? "";
  element.hidden = !text;
}

function clock(at) {
  const time = new Date(at);
  return time.toLocaleTimeString(document.documentElement.lang || [], { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
}

function messageItem(message) {
  const item = node("li", "chat-message");
  item.dataset.id = message.id;
  item.dataset.author = message.author;
  const time = node("time", "chat-time muted", clock(message.at));
  time.dateTime = message.at;
  item.append(node("span", "chat-author", message.author), " ", time, " ",
    node("span", "chat-text", message.text));
  if (me && message.author !== me) {
    const more = node("button", "chat-more link-button", "⋯");
    more.type = "button";
    more.setAttribute("aria-label", interpolate(gettext("Mute or report %(author)s's message"), { author: message.author }, true));
    more.setAttribute("aria-expanded", "false");
    const actions = node("span", "chat-actions cluster");
    actions.hidden = true;
    const mute = node("button", "button button-small", interpolate(gettext("Mute %(author)s"), { author: message.author }, true));
    const report = node("button", "button button-small", pgettext("report a chat message", "Report"));
    mute.type = report.type = "button";
    mute.addEventListener("click", () => send({ type: "chat_mute", username: message.author }));
    report.addEventListener("click", () => {
      send({ type: "chat_report", id: message.id });
      actions.hidden = true;
    });
    more.addEventListener("click", () => {
      actions.hidden = !actions.hidden;
      more.setAttribute("aria-expanded", String(!actions.hidden));
    });
    actions.append(mute, report);
    item.append(" ", more, actions);
  }
  return item;
}

function addMessage(room, message) {
  if (muted.has(message.author) || room.list.querySelector(`[data-id="${message.id}"]`)) return;
  const atBottom = room.list.scrollHeight - room.list.scrollTop - room.list.clientHeight < 40;
  room.list.append(messageItem(message));
  room.empty.hidden = true;
  if (atBottom) room.list.scrollTop = room.list.scrollHeight;
}

function showHistory(frame) {
  maxLength = frame.max_length;
  muted = new Set(frame.muted);
  rooms = new Map();
  roomsBox.replaceChildren();
  for (const data of frame.rooms) {
    const section = node("section", "chat-room");
    section.dataset.room = data.room;
    section.setAttribute("aria-label", data.title);
    if (frame.rooms.length > 1) section.append(node("h3", "chat-room-title", data.title));
    const room = { ...data, list: node("ol", "chat-messages"), empty: node("p", "muted", gettext("No messages yet.")) };
    room.list.setAttribute("aria-live", "polite");
    room.list.tabIndex = 0;
    section.append(room.empty, room.list);
    roomsBox.append(section);
    rooms.set(data.room, room);
    for (const message of data.messages) addMessage(room, message);
    room.list.scrollTop = room.list.scrollHeight;
  }
  writable = frame.rooms.find((room) => !room.closed) ?? null;
  form.hidden = !writable;
  const to = writable
    ? MESSAGE_TO[writable.room] ?? writable.title
    : pgettext("a chat message", "Message");
  part("label").textContent = to;
  input.placeholder = frame.rooms.length > 1 ? `${to}…` : gettext("Say something nice…");
  // Signed out, the page's own "Sign in to chat." link stays; otherwise the server's reason.
  const closed = part("closed");
  if (!writable && !closed.querySelector("a")) closed.textContent = frame.closed || frame.rooms[0]?.closed || "";
  closed.hidden = Boolean(writable) || !closed.textContent.trim();
  part("loading").hidden = true;
  showMuted();
}

function showMuted() {
  const list = part("muted");
  list.replaceChildren();
  list.hidden = muted.size === 0;
  if (!muted.size) return;
  list.append(gettext("Muted:"), " ");
  for (const name of [...muted].sort()) {
    const unmute = node("button", "button button-small", interpolate(gettext("Unmute %(author)s"), { author: name }, true));
    unmute.type = "button";
    unmute.addEventListener("click", () => send({ type: "chat_unmute", username: name }));
    list.append(unmute, " ");
  }
}

function receive(frame) {
  if (frame.type === "chat_history") showHistory(frame);
  else if (frame.type === "chat") {
    const room = rooms.get(frame.room);
    if (room) addMessage(room, frame.message);
    if (frame.message.author === me && frame.message.text === pending) {
      input.value = "";
      pending = null;
      count();
    }
  } else if (frame.type === "chat_muted") {
    muted = new Set(frame.muted);
    for (const item of box.querySelectorAll(".chat-message")) {
      if (muted.has(item.dataset.author)) item.remove();
    }
    showMuted();
    say("note", frame.muted.length ? gettext("Their messages are hidden from you everywhere.") : "");
  } else if (frame.type === "chat_reported") {
    say("note", gettext("Reported: a moderator will look at it. Thank you."));
  } else if (frame.type === "refused" && frame.request?.startsWith("chat_")) {
    pending = null;
    say("refusal", frame.reason);
  } else if (frame.status && frame.status !== gameStatus) {
    // A game that ends opens the spectators' room to its players: ask for the rooms again.
    if (gameStatus !== null) send({ type: "chat_hello" });
    gameStatus = frame.status;
  }
}

function count() {
  const length = input.value.trim().length;
  const counted = interpolate(gettext("%(length)s / %(max)s characters"), { length, max: maxLength }, true);
  say("count", length > maxLength - 40 ? counted : "");
  part("count").classList.toggle("chat-over", length > maxLength);
}

const shared = shareSocket({ onMessage: receive, onOpen: () => send({ type: "chat_hello" }) });

function send(message) {
  say("refusal", "");
  say("note", "");
  if (!shared.send(message)) say("refusal", gettext("Not connected: wait a moment and try again."));
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  if (!writable || !input.value.trim()) return;
  pending = input.value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").trim();
  send({ type: "chat_send", room: writable.room, text: input.value });
});
input.addEventListener("input", count);

// The game page opens no socket once its game is over: then the chat opens the page's one.
// Asked at "load", when every module script of the page has run (this one may run first).
function openIfAlone() {
  if (!shared.exists()) liveSocket(box.dataset.chatSocket, { goneText: gettext("This chat is gone.") });
}
if (document.readyState === "complete") openIfAlone();
else window.addEventListener("load", openIfAlone);
