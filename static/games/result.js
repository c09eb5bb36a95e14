// The game page's result panel (templates/games/_result_panel.html): the final count per
// player in the game's own columns, each player's rating change (it comes in a new frame
// once the scoring task has run), why the game ended, and the rematch (docs/PROTOCOL.md,
// "Rematch"). static/games/game.js makes it and draws it with every frame.

import { seatSwatch } from "../board/common.js";

const $ = (id) => document.getElementById(id);

// What a seat that left did, as the sentence says it (the frame's `forfeit`).
const LEFT = { resign: "resigned", time: "ran out of time", gone: "left the game" };

function names(seats, seatName) {
  const list = seats.map(seatName);
  return list.length > 1 ? `${list.slice(0, -1).join(", ")} and ${list.at(-1)}` : list[0] ?? "";
}

function headline(frame, seatName) {
  if (frame.status === "aborted") return "Game aborted";
  if (!frame.result) return "Game over: counting the scores…";
  const winners = frame.result.winners;
  return `${names(winners, seatName)} ${winners.length > 1 ? "share the win" : "wins"}`;
}

function reason(frame, seatName) {
  const left = frame.seats.filter((seat) => seat.forfeit);
  if (frame.status === "aborted") {
    if (frame.termination === "abort") return "Called off before the first moves: nobody wins, nothing is rated.";
    const who = left.map((seat) => `${seatName(seat.index)} ${LEFT[seat.forfeit]}`).join("; ");
    return `${who} before every player had moved: nobody wins, nothing is rated.`;
  }
  if (LEFT[frame.termination]) {
    const seat = left.find((s) => s.forfeit === frame.termination) ?? left[0];
    return seat ? `${seatName(seat.index)} ${LEFT[frame.termination]}.` : "";
  }
  const why = frame.final?.end_reason;
  return why ? `The game ended because ${why}.` : "The game was played to the end.";
}

function cell(text, className = "") {
  const td = document.createElement("td");
  td.className = className;
  td.textContent = text;
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
    if (entry.seat === frame.you) who.append(" (you)");
    if (winners.includes(entry.seat)) {
      row.classList.add("winner");
      who.insertAdjacentHTML("beforeend", ' <span class="badge">Winner</span>');
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
      return cell(String(value ?? "–"), "num");
    }));
    if (frame.rated) row.append(ratingCell(frame, entry.seat));
    return row;
  });
}

function rematchText(frame, seatName) {
  const rematch = frame.rematch;
  if (!rematch) return "";
  if (rematch.game) return "The rematch has started.";
  const offered = rematch.offered_by;
  if (!offered.length) return "";
  const waiting = frame.seats.map((seat) => seat.index).filter((index) => !offered.includes(index));
  if (rematch.can_cancel) return `You asked for a rematch: waiting for ${names(waiting, seatName)}.`;
  const asking = names(offered, seatName);
  return `${asking} ${offered.length > 1 ? "want" : "wants"} a rematch.`;
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
