// The rules pages: draws every picture with the site's board modules (static/board/) from the
// positions the server built with the engine (learn/selectors.py, figure_payload). Nothing
// here knows a rule: what a visitor sees, what flipped and what was harvested come with the
// positions and the engine's sight lines. Texts go through Django's JavaScript catalogue
// (gettext, ngettext, interpolate: globals base.html loads); the captions come translated
// with the page.

import * as topiary from "../board/topiary.js";
import { drawBoard as drawWizards } from "../board/wizards_garden.js";

const { el } = topiary;
const figures = JSON.parse(document.getElementById("rules-figures").textContent);
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

function tileRow(tiles, scoring = [], label = gettext("Tiles"), heading = "") {
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
    const tile = topiary.miniTile(code, "figure-tile");
    if (scoring.includes(code)) {
      tile.classList.add("scores");
      tile.setAttribute("aria-label", say(gettext("%(tile)s: scores %(points)s"), { tile: topiary.tileName(code), points: code[1] }));
    }
    row.append(tile);
  }
  return row;
}

const BOARDS = {
  topiary(svg, shown, figure) {
    topiary.drawGarden(svg, shown.position, {
      sightLines: shown.sight_lines,
      focus: figure.focus,
      targets: figure.targets ?? [],
      seatName: (seat) => say(gettext("Player %(number)s"), { number: seat + 1 }),
    });
  },
  wizards_garden(svg, shown, figure, previous) {
    drawWizards(svg, shown.position, {
      previous: previous?.position.board ?? null,
      // The board says "Wizard's Staff: with <name>".
      seatName: (seat) => say(pgettext("staff holder", "player %(number)s"), { number: seat + 1 }),
    });
    // Flowers are what the game is scored by: say them under the board.
    const flowers = shown.position.harvested.map(({ W, B }, seat) => {
      const values = { number: seat + 1, flowers: W + B, black: B };
      return B ? say(gettext("player %(number)s: %(flowers)s (%(black)s black)"), values) : say(gettext("player %(number)s: %(flowers)s"), values);
    });
    return say(gettext("Flowers: %(list)s"), { list: flowers.join(" · ") });
  },
};

function panel(figure, shown, title, previous = null) {
  const wrap = document.createElement("div");
  wrap.className = `figure-board-wrap figure-${figure.game}`;
  const svg = boardSvg(title);
  const note = BOARDS[figure.game](svg, shown, figure, previous);
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
    holder.append(tileRow(figure.tiles));
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
    holder.append(tileRow(figure.hand, figure.scoring, caption, caption));
  }
}
