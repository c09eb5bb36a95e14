// The game page's result panel (templates/games/_result_panel.html): the final count per
// player in the game's own columns, each player's rating change (it comes in a new frame
// once the scoring task has run), why the game ended, and the rematch (docs/PROTOCOL.md,
// "Rematch"). static/games/game.js makes it and draws it with every frame.
// Its words come from Django's JavaScript catalogue (base.html), in the page's language.
/* global gettext, ngettext, pgettext, interpolate */

import { seatSwatch } from "../board/common.js";

const $ = (id) => document.getElementById(id);

// What a seat that left did (the frame's `forfeit`): its badge, and what it did as a sentence says it.
const LEFT = {
  resign: pgettext("a player's badge", "resigned"),
  time: pgettext("a player's badge", "ran out of time"),
  gone: pgettext("a player's badge", "left the game"),
};
const LEFT_SAYING = {
  resign: gettext("%(player)s resigned"),
  time: gettext("%(player)s ran out of time"),
  gone: gettext("%(player)s left the game"),
};
// Why a game ended, by the engine's (English) end reason: the whole sentence for each one known.
const END_REASONS = {
  "the basket is empty": gettext("The game ended because the basket is empty."),
  "the board is empty": gettext("The game ended because the board is empty."),
  "the board is full": gettext("The game ended because the board is full."),
};

// "Ann, Bob and Cy" in the page's language.
export function namesList(list) {
  return new Intl.ListFormat(document.documentElement.lang || "en", { type: "conjunction" }).format(list);
}

// A game whose first place is shared is a draw (the history's "Draw", the rules' "drawn"):
// it is called a draw and nobody in it is badged the winner.
export function isDraw(frame) {
  return (frame.result?.winners.length ?? 0) > 1;
}

// The frame the result panel drew last: game.js draws the final count with that same frame
// right after the panel, and its winner badges follow the panel's.
let shownFrame = null;

// The badge beside a winner's name; nothing on a draw.
export function winnerBadge(frame = shownFrame) {
  if (frame && isDraw(frame)) return document.createDocumentFragment();
  const badge = document.createElement("span");
  badge.className = "badge";
  badge.textContent = gettext("Winner");
  return badge;
}

// The result in a few words ("alice wins", "Draw", "Draw for first place: ..."): the
// result panel's heading, and the game page's status line once the game is over.
export function headline(frame, seatName) {
  if (frame.status === "aborted") return gettext("Game aborted");
  if (!frame.result) return gettext("Game over: counting the scores…");
  const winners = frame.result.winners;
  if (!isDraw(frame)) {
    return interpolate(gettext("%(names)s wins"), { names: seatName(winners[0]) }, true);
  }
  if (winners.length === frame.seats.length) return pgettext("game result", "Draw");
  return interpolate(gettext("Draw for first place: %(names)s"), { names: namesList(winners.map(seatName)) }, true);
}

function whoLeft(seat, forfeit, seatName) {
  return interpolate(LEFT_SAYING[forfeit], { player: seatName(seat.index) }, true);
}

function reason(frame, seatName) {
  const left = frame.seats.filter((seat) => seat.forfeit);
  if (frame.status === "aborted") {
    if (frame.termination === "abort") return gettext("Called off before the first moves: nobody wins, nothing is rated.");
    const who = left.map((seat) => whoLeft(seat, seat.forfeit, seatName)).join("; ");
    return interpolate(gettext("%(who)s before every player had moved: nobody wins, nothing is rated."), { who }, true);
  }
  if (LEFT[frame.termination]) {
    const seat = left.find((s) => s.forfeit === frame.termination) ?? left[0];
    return seat ? `${whoLeft(seat, frame.termination, seatName)}.` : "";
  }
  const why = frame.final?.end_reason;
  if (!why) return gettext("The game was played to the end.");
  return END_REASONS[why]
    ?? interpolate(gettext("The game ended because %(reason)s."), { reason: why }, true);
}

function cell(text, className = "") {
  const td = document.createElement("td");
  td.className = className;
  td.textContent = text;
  return td;
}

// On a phone each row is a card of labelled facts (site.css, .table-scores): the column's name.
function labelled(td, th) {
  td.dataset.label = th.textContent.trim();
  return td;
}

function ratingCell(frame, seat) {
  // Rated games: "…" until the scoring task has run, then the new rating and its change.
  if (!frame.result) return cell("…", "num rating-pending");
  const change = frame.result.ratings?.find((entry) => entry.seat === seat);
  if (!change || change.after === null) return cell("–", "num");
  const td = cell(`${change.after} `, "num rating-change");
  const delta = document.createElement("span");
  delta.className = change.change > 0 ? "up" : change.change < 0 ? "down" : "same";
  delta.textContent = `(${change.change > 0 ? "+" : change.change < 0 ? "−" : "±"}${Math.abs(change.change)})`;
  td.append(delta);
  td.dataset.ratingChange = String(change.change);
  return td;
}

function rows(frame, seatName) {
  const scores = frame.result?.scores ?? frame.final?.scores ?? [];
  const winners = frame.result?.winners ?? [];
  const columns = [...document.querySelectorAll("#result thead th[data-key]")];
  const rank = (entry) => frame.seats[entry.seat]?.rank ?? entry.seat + 1;
  return [...scores].sort((a, b) => rank(a) - rank(b) || a.seat - b.seat).map((entry) => {
    const seat = frame.seats[entry.seat];
    const row = document.createElement("tr");
    row.dataset.seat = entry.seat;
    const who = document.createElement("td");
    const name = document.createElement("span");
    name.className = "who";
    name.append(seatSwatch(entry.seat), ` ${seatName(entry.seat)}`);
    who.append(name);
    if (entry.seat === frame.you) who.append(" ", gettext("(you)"));
    if (winners.includes(entry.seat) && !isDraw(frame)) {
      row.classList.add("winner");
      who.append(" ", winnerBadge(frame));
    }
    if (seat?.forfeit) {
      const badge = document.createElement("span");
      badge.className = "badge badge-muted";
      badge.textContent = LEFT[seat.forfeit];
      who.append(" ", badge);
    }
    row.append(who, ...columns.map((th) => {
      const value = entry[th.dataset.key];
      if (th.dataset.flag) return cell(value ? th.dataset.flag : "");
      return labelled(cell(String(value ?? "–"), "num"), th);
    }));
    if (frame.rated) row.append(labelled(ratingCell(frame, entry.seat), document.querySelector("#result .result-rating-head")));
    return row;
  });
}

function rematchText(frame, seatName) {
  const rematch = frame.rematch;
  if (!rematch) return "";
  if (rematch.game) return gettext("The rematch has started.");
  const offered = rematch.offered_by;
  if (!offered.length) return "";
  const waiting = frame.seats.map((seat) => seat.index).filter((index) => !offered.includes(index));
  if (rematch.can_cancel) {
    return interpolate(gettext("You asked for a rematch: waiting for %(names)s."),
      { names: namesList(waiting.map(seatName)) }, true);
  }
  const text = ngettext("%(names)s wants a rematch.", "%(names)s want a rematch.", offered.length);
  return interpolate(text, { names: namesList(offered.map(seatName)) }, true);
}

export function resultPanel({ send, seatName }) {
  // Only a rematch that starts while the page is open takes the player there: an old
  // game's page opened later stays put and offers the link.
  let waitedHere = false;
  let followed = false;
  $("rematch").addEventListener("click", () => send({ type: "rematch" }));
  $("rematch-accept").addEventListener("click", () => send({ type: "rematch_accept" }));
  $("rematch-decline").addEventListener("click", () => send({ type: "rematch_decline" }));
  $("rematch-cancel").addEventListener("click", () => send({ type: "rematch_cancel" }));

  function draw(frame) {
    const over = frame.status === "finished" || frame.status === "aborted";
    $("result").hidden = !over;
    shownFrame = frame;
    if (!over) return;
    $("result-headline").textContent = headline(frame, seatName);
    $("result-reason").textContent = reason(frame, seatName);
    const shown = rows(frame, seatName);
    $("result-rows").replaceChildren(...shown);
    $("result-rows").closest(".table-wrap").hidden = shown.length === 0;
    document.querySelector("#result .result-rating-head").hidden = !frame.rated;
    $("result-replay").hidden = frame.status !== "finished";
    const rematch = frame.rematch;
    $("rematch").hidden = !rematch?.can_offer;
    $("rematch-accept").hidden = !rematch?.can_answer;
    $("rematch-decline").hidden = !rematch?.can_answer;
    $("rematch-cancel").hidden = !rematch?.can_cancel;
    $("rematch-status").textContent = rematchText(frame, seatName);
    if (rematch && !rematch.game) waitedHere = true;
    const link = $("rematch-link");
    link.hidden = !rematch?.game;
    if (rematch?.game) {
      link.href = `/game/${rematch.game}/`;
      // Every player goes to the new game at once; a spectator may follow the link.
      if (frame.you !== null && waitedHere && !followed) {
        followed = true;
        location.assign(link.href);
      }
    }
  }

  return { draw };
}
