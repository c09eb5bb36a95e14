// The lobby's open tables, kept up to date over /ws/lobby/ (docs/PROTOCOL.md).
/* global gettext, pgettext, interpolate */

import { postButton } from "../live/alerts.js";
import { liveSocket } from "../live/socket.js";
import { quickPairing } from "./quick_pairing.js";
import { timeControlText } from "../live/words.js";

const body = document.getElementById("tables");
const empty = document.getElementById("no-tables");

function cell(...children) {
  const td = document.createElement("td");
  td.append(...children);
  return td;
}

function badge(text, extra = "") {
  const span = document.createElement("span");
  span.className = `badge ${extra}`.trim();
  span.textContent = text;
  return span;
}

function seatsCell(seats) {
  const td = cell();
  seats.forEach((seat, i) => {
    if (i) td.append(", ");
    if (seat.username) {
      td.append(seat.username);
      if (seat.rating) {
        const rating = document.createElement("span");
        rating.className = "rating";
        rating.textContent = `(${seat.rating})`;
        td.append(" ", rating);
      }
      if (seat.bot) td.append(" ", badge("BOT", "badge-bot"));
    } else {
      const free = document.createElement("span");
      free.className = "muted";
      free.textContent = gettext("free seat");
      td.append(free);
    }
  });
  return td;
}

function actionCell(table) {
  if (table.yours) {
    const link = document.createElement("a");
    link.className = "button button-small";
    link.href = table.url;
    link.textContent = pgettext("open your table", "Open");
    return cell(link);
  }
  if (table.invited_you) {
    return cell(
      postButton(`/game/${table.id}/join`, pgettext("a challenge", "Accept"), true),
      postButton(`/game/${table.id}/leave`, pgettext("a challenge", "Decline"), false),
    );
  }
  return cell(postButton(`/game/${table.id}/join`, pgettext("a table", "Join"), true));
}

function row(table) {
  const tr = document.createElement("tr");
  tr.dataset.table = table.id;
  const kind = cell(table.kind_name);
  if (table.invited) {
    kind.append(" ", badge(interpolate(gettext("challenge to %(player)s"), { player: table.invited }, true)));
  }
  tr.append(
    kind,
    seatsCell(table.seats),
    cell(table.time_control_text ?? timeControlText(table.time_control)),
    cell(table.rated ? gettext("Rated") : gettext("Casual")),
    actionCell(table),
  );
  return tr;
}

function show(tables) {
  body.replaceChildren(...tables.map(row));
  empty.hidden = tables.length > 0;
}

let socket = null;
const quick = quickPairing((message) => socket?.send(message));

socket = liveSocket("/ws/lobby/", {
  onMessage(frame) {
    if (frame.type === "tables") show(frame.tables);
    else if (frame.type === "seeks") quick.seeks(frame);
    else if (frame.type === "paired") quick.paired(frame);
    else if (frame.type === "refused") quick.refused(frame);
  },
  // The lobby sends the lists again on connecting: a reconnect catches up by itself,
  // and a page that was seeking seeks again (the server cancelled it with the socket).
  hello: quick.hello,
});
