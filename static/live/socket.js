// The live socket of the game, lobby and tournament pages (docs/PROTOCOL.md): reconnects
// with backoff, says hello again on every (re)connect so the page catches up, keeps a
// heartbeat, and shows its state in an element the page gets ("Reconnecting…").
//
// Close codes (docs/PROTOCOL.md, "Limits and close codes"): 4404 means there is nothing
// to connect to, so the socket stops and says so; 4429 means over a limit, so it waits
// longer before trying again.
/* global gettext */

const FIRST_DELAY = 500;
const MAX_DELAY = 10000;
const LIMITED_DELAY = 30000;
export const GONE = 4404;
export const LIMITED = 4429;

// Frames of a game are ordered by (takebacks, ply): a takeback lowers the ply but raises the count.
export function compareFrames(a, b) {
  return (a.takebacks ?? 0) - (b.takebacks ?? 0) || a.ply - b.ply;
}

// Other modules of a page (the chat, static/chat/chat.js) share the page's one socket:
// they hear every frame and every (re)connect and may send; chat frames (docs/PROTOCOL.md,
// "Chat") go to them only, so a page script never sees another module's frames.
const sharers = [];
let pageSocket = null;

function forSharers(frame) {
  return frame.type?.startsWith("chat") || (frame.type === "refused" && frame.request?.startsWith("chat_"));
}

// Joins the page's socket with {onMessage(frame), onOpen()}; returns {send(message) -> true
// if sent, exists() -> whether the page opened a socket}.
export function shareSocket(sharer) {
  sharers.push(sharer);
  if (pageSocket?.connected()) sharer.onOpen?.();
  return { send: (message) => pageSocket?.send(message) ?? false, exists: () => pageSocket !== null };
}

// The element showing the socket's state: the page's [data-live-status], else one made
// at the top of <main>.
function statusBox() {
  let box = document.querySelector("[data-live-status]");
  if (!box) {
    box = document.createElement("p");
    box.dataset.liveStatus = "";
    box.className = "live-status";
    box.setAttribute("role", "status");
    (document.querySelector("main") ?? document.body).prepend(box);
  }
  return box;
}

// Opens ``path`` (e.g. "/ws/lobby/") and keeps it open. Options:
//   onMessage(frame)  each frame from the server, parsed
//   hello()           the message to send on every (re)connect, or null for none
//   onOpen()          after every (re)connect, e.g. to fetch what was missed meanwhile
//   heartbeat         ms between pings, or 0 for none; a socket that hears nothing for two
//                     heartbeats is taken for dead and reopened
//   goneText          what to show when the server says there is nothing there (4404)
//   quiet             true for a socket in the background of every page (the player's own,
//                     static/live/alerts.js): it shows no state, leaves the page's alone
//                     and is never shared (shareSocket)
// Returns {send(message) -> true if sent, connected() -> bool, close()}.
export function liveSocket(path, options = {}) {
  const { onMessage = () => {}, hello = null, onOpen = () => {}, heartbeat = 0,
    goneText = gettext("This page no longer exists on the server."), quiet = false } = options;
  const box = quiet ? null : statusBox();
  let socket = null;
  let delay = FIRST_DELAY;
  let heardAt = 0;
  let stopped = false;
  let retryTimer = null;

  function show(state, text) {
    if (!box) return;
    box.dataset.state = state;
    box.textContent = text;
    box.hidden = state === "open" || state === "connecting";
    document.body.dataset.live = state;
  }

  function connect() {
    retryTimer = null;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}${path}`);
    if (!box?.dataset.state) show("connecting", "");
    socket.addEventListener("open", () => {
      delay = FIRST_DELAY;
      heardAt = performance.now();
      show("open", "");
      const greeting = hello?.();
      if (greeting) socket.send(JSON.stringify(greeting));
      onOpen();
      if (!quiet) for (const sharer of sharers) sharer.onOpen?.();
    });
    socket.addEventListener("message", (event) => {
      heardAt = performance.now();
      const frame = JSON.parse(event.data);
      if (!quiet) for (const sharer of sharers) sharer.onMessage?.(frame);
      if (!forSharers(frame)) onMessage(frame);
    });
    socket.addEventListener("close", (event) => {
      socket = null;
      if (stopped) return;
      if (event.code === GONE) {
        stopped = true;
        show("gone", goneText);
        return;
      }
      const wait = event.code === LIMITED ? Math.max(delay, LIMITED_DELAY) : delay;
      delay = Math.min(delay * 2, MAX_DELAY);
      show("reconnecting", event.code === LIMITED
        ? gettext("Too many messages: reconnecting in a moment…") : gettext("Connection lost: reconnecting…"));
      retryTimer = setTimeout(connect, wait);
    });
  }

  if (heartbeat) {
    setInterval(() => {
      if (!socket || socket.readyState !== WebSocket.OPEN) return;
      if (performance.now() - heardAt > 2 * heartbeat) socket.close();
      else socket.send(JSON.stringify({ type: "ping" }));
    }, heartbeat);
  }
  // Back on line (a laptop waking, a phone leaving a tunnel): try now rather than at the next backoff.
  window.addEventListener("online", () => {
    if (retryTimer !== null) {
      clearTimeout(retryTimer);
      connect();
    }
  });

  connect();
  const handle = {
    send(message) {
      if (!socket || socket.readyState !== WebSocket.OPEN) return false;
      socket.send(JSON.stringify(message));
      return true;
    },
    connected: () => Boolean(socket) && socket.readyState === WebSocket.OPEN,
    close() {
      stopped = true;
      socket?.close();
    },
  };
  // A quiet socket (the player's own, on every page) is not the page's: the chat never
  // shares it, whichever of the two a page opens first.
  if (!quiet) pageSocket = handle;
  return handle;
}
