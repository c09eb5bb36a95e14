// The rules pages: draws every picture with the site's board modules (static/board/) from the
// positions the server built with the engine (learn/selectors.py, figure_payload). Nothing
// here knows a rule: what a visitor sees, what flipped and what was harvested come with the
// positions and the engine's sight lines. Texts go through Django's JavaScript catalogue
// (gettext, ngettext, interpolate: globals base.html loads); the captions come translated
// with the page.

import { boardOf } from "../board/boards.js";
import { el } from "../board/common.js";

const figures = JSON.parse(document.getElementById("rules-figures").textContent);
// Each game's board object (static/board/<game>.js) draws its figures.
const gameBoards = Object.fromEntries(await Promise.all(
  [...new Set(figures.map((figure) => figure.game))].map(async (game) => [game, await boardOf(game)]),
));
// Fills a translated text's %(name)s placeholders.
const say = (format, values) => interpolate(format, values, true);

function boardSvg(label) {
  return el("svg", { class: "board figure-board", role: "group", "aria-label": label });
}

// A placed visitor is focusable on the live pages (to show its line); a picture shows the
// line already, so its pieces stay out of the tab order.
function still(svg) {
  for (const node of svg.querySelectorAll("[tabindex]")) node.removeAttribute("tabindex");
  return svg;
}

function tileRow(board, tiles, scoring = [], label = gettext("Tiles"), heading = "") {
  const row = document.createElement("p");
  row.className = "figure-tiles";
  row.setAttribute("aria-label", label);
  if (heading) {
    const words = document.createElement("span");
    words.className = "figure-tiles-label";
    words.textContent = heading;
    row.append(words);
  }
  for (const code of tiles) {
    const tile = board.miniTile(code, "figure-tile");
    if (scoring.includes(code)) {
      tile.classList.add("scores");
      tile.setAttribute("aria-label", say(gettext("%(tile)s: scores %(points)s"), { tile: board.tileName(code), points: code[1] }));
    }
    row.append(tile);
  }
  return row;
}

function panel(figure, shown, title, previous = null) {
  const wrap = document.createElement("div");
  wrap.className = `figure-board-wrap figure-${figure.game}`;
  const svg = boardSvg(title);
  const note = gameBoards[figure.game].figure(svg, shown, figure, previous);
  wrap.append(still(svg));
  for (const [text, className] of [[figure.after ? title : "", "figure-label"], [note, "figure-note"]]) {
    if (!text) continue;
    const line = document.createElement("p");
    line.className = className;
    line.textContent = text;
    wrap.append(line);
  }
  return wrap;
}

for (const figure of figures) {
  const holder = document.querySelector(`[data-figure="${figure.key}"] .figure-boards`);
  if (!holder) continue;
  if (!figure.before) {
    holder.append(tileRow(gameBoards[figure.game], figure.tiles));
    continue;
  }
  if (figure.after) {
    const after = say(gettext("After %(move)s"), { move: figure.move });
    holder.append(panel(figure, figure.before, pgettext("picture", "Before")), panel(figure, figure.after, after, figure.before));
  } else {
    holder.append(panel(figure, figure.before, gettext("The position")));
  }
  if (figure.hand) {
    const caption = figure.scoring.length ? gettext("The hand (outlined tiles score):") : gettext("The hand:");
    holder.append(tileRow(gameBoards[figure.game], figure.hand, figure.scoring, caption, caption));
  }
}
