// Live tournament page: the websocket only says which version is current; when it
// moves past ours, the live part of the page is fetched again over HTTP.
/* global gettext, pgettext, interpolate */

import { liveSocket } from "../live/socket.js";
import { localizeTimes } from "./local_time.js";

const live = document.getElementById("tournament-live");

let version = Number(live.dataset.version);
let refreshing = null;

async function refresh() {
  // The query keeps the page of an arena's games being read.
  const response = await fetch(live.dataset.liveUrl + location.search, { headers: { Accept: "text/html" } });
  if (!response.ok) return;
  const fresh = Number(response.headers.get("X-Tournament-Version"));
  if (fresh < version) return;
  version = fresh;
  live.dataset.version = String(fresh);
  live.innerHTML = await response.text();
  localizeTimes(live);
}

function queueRefresh() {
  // One fetch at a time; a version heard meanwhile triggers one more.
  refreshing = (refreshing || Promise.resolve()).then(refresh).catch(() => {});
}

// Missed messages are not lost: the version sent on (re)connecting resyncs the page.
liveSocket(live.dataset.socket, {
  onMessage(message) {
    if (message.type === "version" && message.version > version) queueRefresh();
  },
  goneText: gettext("This tournament does not exist."),
});

// The countdown to the start, from the server's clock: the page carries the server time
// it was made at, so a visitor's wrong clock does not move the start.
const countdownDigits = (n) => String(n).padStart(2, "0");

function timeLeft(ms) {
  const total = Math.ceil(ms / 1000);
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const clock = hours || days
    ? `${hours}:${countdownDigits(minutes)}:${countdownDigits(seconds)}`
    : `${minutes}:${countdownDigits(seconds)}`;
  return days ? interpolate(pgettext("a countdown: days, then h:mm:ss", "%(days)s d %(clock)s"), { days, clock }, true) : clock;
}

let overdueSince = null;

function tickCountdown() {
  const countdown = document.getElementById("tournament-countdown");
  if (!countdown) return;
  const left = countdown.querySelector(".countdown-left");
  const serverTime = Number(countdown.dataset.serverTime);
  if (!countdown.dataset.loadedAt) countdown.dataset.loadedAt = String(Date.now());
  const now = serverTime + (Date.now() - Number(countdown.dataset.loadedAt));
  const ms = Number(countdown.dataset.startsAt) - now;
  if (ms > 0 && left) {
    left.textContent = timeLeft(ms);
    left.setAttribute("datetime", `PT${Math.ceil(ms / 1000)}S`);
    overdueSince = null;
    return;
  }
  // It follows "Starts <date> UTC" in templates/tournaments/_live.html.
  countdown.textContent = pgettext("after 'Starts <date> UTC'", ", starting now");
  // The socket announces the start; should it be down, look again now and then.
  if (overdueSince === null) overdueSince = Date.now();
  if (Date.now() - overdueSince > 5000) {
    overdueSince = Date.now();
    queueRefresh();
  }
}

// A running arena's time left until no new game starts, from the server's clock too.
function tickArenaClock() {
  const clock = document.getElementById("arena-clock");
  const left = clock?.querySelector(".countdown-left");
  if (!left) return;
  if (!clock.dataset.loadedAt) clock.dataset.loadedAt = String(Date.now());
  const now = Number(clock.dataset.serverTime) + (Date.now() - Number(clock.dataset.loadedAt));
  const ms = Math.max(0, Number(clock.dataset.endsAt) - now);
  left.textContent = timeLeft(ms);
  left.setAttribute("datetime", `PT${Math.ceil(ms / 1000)}S`);
}

function tick() {
  tickCountdown();
  tickArenaClock();
}

tick();
setInterval(tick, 1000);
