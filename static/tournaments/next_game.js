// At an arena game's end, the game page goes on to the player's next pairing by itself,
// as lichess's arena does (templates/tournaments/_game_end.html). The result panel
// showing is the sign the game is over; the event's "next game" answer says which game
// is on now, and whether one may still come.
/* global gettext */

const next = document.getElementById("tournament-next");
const result = document.getElementById("result");
const status = document.getElementById("tournament-next-status");
const thisGame = Number(next?.dataset.game);
let done = !next || next.dataset.follow !== "1";

async function look() {
  const response = await fetch(next.dataset.nextUrl, { headers: { Accept: "application/json" } });
  if (!response.ok) return;
  const answer = await response.json();
  if (answer.game && answer.game !== thisGame) {
    done = true;
    status.textContent = gettext("Your next game is ready…");
    location.assign(answer.url);
  } else if (!answer.waiting) {
    done = true;
    next.hidden = true;
    status.textContent = "";
  } else {
    status.textContent = gettext("Waiting for your next opponent…");
  }
}

setInterval(() => {
  if (!done && result && !result.hidden) look().catch(() => {});
}, 2000);
