// The rules pages: draws every picture with the site's board modules (static/board/) from the
// positions the server built with the engine (learn/selectors.py, figure_payload). Nothing
// here knows a rule: what a visitor sees, what flipped and what was harvested come with the
// positions and the engine's sight lines.

import * as topiary from "../board/topiary.js";
import { drawBoard as drawWizards } from "../board/wizards_garden.js";
import { labelCells } from "./coordinates.js";

const { el } = topiary;
const figures = JSON.parse(document.getElementById("rules-figures").textContent);

function boardSvg(label) {
  return el("svg", { class: "board figure-board", role: "group", "aria-label": label });
}

// A placed visitor is focusable on the live pages (to show its line); a picture shows the
// line already, so its pieces stay out of the tab order.
function still(svg) {
  for (const node of svg.querySelectorAll("[tabindex]")) node.removeAttribute("tabindex");
  return svg;
}

function tileRow(tiles, scoring = [], label = "Tiles", heading = "") {
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
      tile.setAttribute("aria-label", `${topiary.tileName(code)}: scores ${code[1]}`);
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
      seatName: (seat) => `Player ${seat + 1}`,
    });
  },
  wizards_garden(svg, shown, figure, previous) {
    drawWizards(svg, shown.position, {
      previous: previous?.position.board ?? null,
      seatName: (seat) => `player ${seat + 1}`,
    });
    // Flowers are what the game is scored by: say them under the board.
    const flowers = shown.position.harvested.map(({ W, B }, seat) => `player ${seat + 1}: ${W + B}${B ? ` (${B} black)` : ""}`);
    return `Flowers: ${flowers.join(" · ")}`;
  },
};

function panel(figure, shown, title, previous = null) {
  const wrap = document.createElement("div");
  wrap.className = `figure-board-wrap figure-${figure.game}`;
  const svg = boardSvg(title);
  const note = BOARDS[figure.game](svg, shown, figure, previous);
  labelCells(svg, figure.game);
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
    holder.append(panel(figure, figure.before, "Before"), panel(figure, figure.after, `After ${figure.move}`, figure.before));
  } else {
    holder.append(panel(figure, figure.before, "The position"));
  }
  if (figure.hand) {
    const caption = figure.scoring.length ? "The hand (outlined tiles score):" : "The hand:";
    holder.append(tileRow(figure.hand, figure.scoring, caption, caption));
  }
}
