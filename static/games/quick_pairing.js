// The lobby's quick pairing grid (docs/PROTOCOL.md "Seeks on the lobby socket",
// docs/PAGES.md "Quick pairing"). A click on a cell seeks over the lobby socket; a second
// click cancels; the server cancels by itself when the socket closes, so after a
// reconnect the page seeks again (hello). The lobby page (lobby.js) owns the socket.
/* global gettext, ngettext, pgettext, interpolate */
import { timeControlText } from "../live/words.js";

const cells = [...document.querySelectorAll("button.quick-cell")];
const status = document.getElementById("quick-status");
const ratedBox = document.getElementById("quick-rated");
const rangeBox = document.getElementById("quick-range");
const botsBox = document.getElementById("quick-bots");
const seeksBody = document.getElementById("seeks");
const noSeeks = document.getElementById("no-seeks");

const cellKey = (button) => (ratedBox?.checked === false ? button.dataset.cellCasual : button.dataset.cellRated);
const numberOrNull = (select) => (select && select.value ? Number(select.value) : null);

function describe(button) {
  const row = button.closest(".quick-row").querySelector(".quick-row-title").textContent.replace(/\s+/g, " ").trim();
  const mode = ratedBox?.checked === false ? pgettext("a game", "casual") : pgettext("a game", "rated");
  return `${row}, ${button.querySelector(".quick-time").textContent}, ${mode}`;
}

function seekingText(button) {
  return interpolate(gettext("Seeking %(seek)s…"), { seek: describe(button) }, true);
}

export function quickPairing(send) {
  let seeking = null; // the message this page's seek was placed with (sent again after a reconnect)
  let mine = null; // the server's word on this page's seek
  let waiting = {};
  let countdown = null;

  function seekMessage(button) {
    const players = Number(button.dataset.players);
    return {
      type: "seek",
      kind: button.dataset.kind,
      players,
      time_control: button.dataset.timeControl,
      rated: ratedBox ? ratedBox.checked : true,
      range: numberOrNull(rangeBox),
      bots_after: players > 2 ? numberOrNull(botsBox) : null,
    };
  }

  function mineButton() {
    return mine ? cells.find((button) => [button.dataset.cellRated, button.dataset.cellCasual].includes(mine.cell)) : null;
  }

  function showStatus() {
    clearTimeout(countdown);
    const button = mineButton();
    if (!button) {
      if (seeking === null) {
        status.textContent = gettext("Click a time control to seek an opponent; click it again to stop.");
      }
      return;
    }
    const others = (waiting[mine.cell] ?? 1) - 1;
    const players = Number(button.dataset.players);
    // Sentence by sentence: what is sought, who is here, how to stop.
    const sentences = [seekingText(button)];
    if (players > 2) {
      sentences.push(interpolate(gettext("%(count)s of %(total)s players here."),
        { count: others + 1, total: players }, true));
      if (mine.bots_after) {
        const left = Math.max(0, Math.ceil((mine.since + mine.bots_after * 1000 - Date.now()) / 1000));
        sentences.push(left
          ? interpolate(gettext("Bots fill the free seats in %(seconds)s s."), { seconds: left }, true)
          : gettext("Bots are joining…"));
        countdown = setTimeout(showStatus, 1000);
      }
    } else if (others > 0) {
      sentences.push(interpolate(ngettext("%(count)s other waiting outside your rating range.",
        "%(count)s others waiting outside your rating range.", others), { count: others }, true));
    }
    sentences.push(gettext("Click it again to stop."));
    status.textContent = sentences.join(" ");
  }

  function showCells() {
    const pressed = mineButton();
    for (const button of cells) {
      const count = waiting[cellKey(button)] ?? 0;
      const own = button === pressed;
      button.setAttribute("aria-pressed", String(own));
      const waitingHere = interpolate(ngettext("%(count)s waiting", "%(count)s waiting", count), { count }, true);
      button.querySelector("[data-waiting]").textContent = own ? gettext("Seeking… click to stop") : count ? waitingHere : "";
    }
    showStatus();
  }

  function seekRow(seek) {
    const tr = document.createElement("tr");
    const cell = (label, ...children) => {
      const td = document.createElement("td");
      td.dataset.label = label;
      td.append(...children);
      tr.append(td);
    };
    const link = document.createElement("a");
    link.href = seek.profile;
    link.textContent = seek.username;
    cell(pgettext("seeks table column", "Player"), link, ` (${seek.rating})`);
    cell(pgettext("seeks table column", "Game"), interpolate(ngettext("%(game)s · %(count)s player", "%(game)s · %(count)s players", seek.players),
      { game: seek.kind_name, count: seek.players }, true));
    cell(pgettext("seeks table column", "Time"), timeControlText(seek.time_control));
    cell(pgettext("seeks table column", "Mode"), seek.rated ? gettext("Rated") : gettext("Casual"));
    cell(pgettext("seeks table column", "Rating range"), seek.range ? `±${seek.range}` : pgettext("a rating range", "Any"));
    if (seek.yours) tr.classList.add("yours");
    return tr;
  }

  for (const button of cells) {
    button.addEventListener("click", () => {
      if (button === mineButton()) {
        seeking = null;
        send({ type: "seek_cancel" });
        status.textContent = gettext("Stopped seeking.");
      } else {
        seeking = seekMessage(button);
        send(seeking);
        status.textContent = seekingText(button);
      }
    });
  }
  // A cell's count is of the mode shown: rated or casual.
  ratedBox?.addEventListener("change", showCells);

  return {
    // After a reconnect the server has dropped this page's seek: place it again.
    hello: () => seeking,
    seeks(frame) {
      waiting = frame.waiting;
      // A seek that went without a pairing (replaced from another page, dropped) is over;
      // one the server holds is what this page sends again after a reconnect.
      if (mine && !frame.mine) seeking = null;
      mine = frame.mine;
      const button = mineButton();
      if (button && !seeking) {
        seeking = { ...seekMessage(button), rated: mine.cell.endsWith(":rated"), range: mine.range, bots_after: mine.bots_after };
      }
      seeksBody.replaceChildren(...frame.seeks.map(seekRow));
      noSeeks.hidden = frame.seeks.length > 0;
      showCells();
    },
    refused(frame) {
      if (frame.request !== "seek" && frame.request !== "seek_cancel") return false;
      seeking = null;
      status.textContent = frame.reason;
      showCells();
      return true;
    },
    paired(frame) {
      seeking = null;
      status.textContent = gettext("Paired: the game starts…");
      location.assign(frame.url);
    },
  };
}
