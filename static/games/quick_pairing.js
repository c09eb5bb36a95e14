// The lobby's quick pairing grid (docs/PROTOCOL.md "Seeks on the lobby socket",
// docs/PAGES.md "Quick pairing"). A click on a cell seeks over the lobby socket; a second
// click cancels; the server cancels by itself when the socket closes, so after a
// reconnect the page seeks again (hello). The lobby page (lobby.js) owns the socket.

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
  const mode = ratedBox?.checked === false ? "casual" : "rated";
  return `${row}, ${button.querySelector(".quick-time").textContent}, ${mode}`;
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
      if (seeking === null) status.textContent = "Click a time control to seek an opponent; click it again to stop.";
      return;
    }
    const others = (waiting[mine.cell] ?? 1) - 1;
    const players = Number(button.dataset.players);
    let text = `Seeking ${describe(button)}…`;
    if (players > 2) {
      text += ` ${others + 1} of ${players} players here.`;
      if (mine.bots_after) {
        const left = Math.max(0, Math.ceil((mine.since + mine.bots_after * 1000 - Date.now()) / 1000));
        text += left ? ` Bots fill the free seats in ${left} s.` : " Bots are joining…";
        countdown = setTimeout(showStatus, 1000);
      }
    } else if (others > 0) {
      text += ` ${others} other${others > 1 ? "s" : ""} waiting outside your rating range.`;
    }
    status.textContent = `${text} Click it again to stop.`;
  }

  function showCells() {
    const pressed = mineButton();
    for (const button of cells) {
      const count = waiting[cellKey(button)] ?? 0;
      const own = button === pressed;
      button.setAttribute("aria-pressed", String(own));
      button.querySelector("[data-waiting]").textContent = own ? "Seeking… click to stop" : count ? `${count} waiting` : "";
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
    cell("Player", link, ` (${seek.rating})`);
    cell("Game", `${seek.kind_name} · ${seek.players} players`);
    cell("Time", seek.time_control);
    cell("Mode", seek.rated ? "Rated" : "Casual");
    cell("Rating range", seek.range ? `±${seek.range}` : "Any");
    if (seek.yours) tr.classList.add("yours");
    return tr;
  }

  for (const button of cells) {
    button.addEventListener("click", () => {
      if (button === mineButton()) {
        seeking = null;
        send({ type: "seek_cancel" });
        status.textContent = "Stopped seeking.";
      } else {
        seeking = seekMessage(button);
        send(seeking);
        status.textContent = `Seeking ${describe(button)}…`;
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
      status.textContent = "Paired: the game starts…";
      location.assign(frame.url);
    },
  };
}
