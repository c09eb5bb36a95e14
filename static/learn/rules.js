// The rules pages: draws every picture with the site's board modules (static/board/) from the
// positions the server built with the engine (learn/selectors.py, figure_payload). Nothing
// here knows a rule: what a visitor sees, what flipped and what was harvested come with the
// positions and the engine's sight lines.

import * as topiary from "../board/topiary.js";
import { drawBoard as drawWizards } from "../board/wizards_garden.js";

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

function tileRow(tiles, scoring = [], label = "Tiles") {
  const row = document.createElement("p");
  row.className = "figure-tiles";
  row.setAttribute("aria-label", label);
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
    drawWizards(svg, shown.position, { previous: previous?.position.board ?? null });
  },
};

function panel(figure, shown, title, previous = null) {
  const wrap = document.createElement("div");
  wrap.className = "figure-board-wrap";
  const svg = boardSvg(title);
  BOARDS[figure.game](svg, shown, figure, previous);
  const label = document.createElement("p");
  label.className = "figure-label";
  label.textContent = title;
  wrap.append(still(svg), label);
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
  if (figure.hand) holder.append(tileRow(figure.hand, figure.scoring, "The player's hand"));
}
