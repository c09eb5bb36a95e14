// Live tournament page: the websocket only says which version is current; when it
// moves past ours, the live part of the page is fetched again over HTTP.
const live = document.getElementById("tournament-live");

let version = Number(live.dataset.version);
let retry = 1000;
let refreshing = null;

async function refresh() {
  const response = await fetch(live.dataset.liveUrl, { headers: { Accept: "text/html" } });
  if (!response.ok) return;
  const fresh = Number(response.headers.get("X-Tournament-Version"));
  if (fresh < version) return;
  version = fresh;
  live.dataset.version = String(fresh);
  live.innerHTML = await response.text();
}

function queueRefresh() {
  // One fetch at a time; a version heard meanwhile triggers one more.
  refreshing = (refreshing || Promise.resolve()).then(refresh).catch(() => {});
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}${live.dataset.socket}`);
  socket.addEventListener("open", () => {
    retry = 1000;
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "version" && message.version > version) queueRefresh();
  });
  socket.addEventListener("close", () => {
    // Missed messages are not lost: the version sent on reconnecting resyncs the page.
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 15000);
  });
}

connect();
