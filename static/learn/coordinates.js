// Cell names around a drawn board (a-e and 1-5 for Topiary, a-d and 1-4 for Wizards' Garden),
// so a lesson or a picture can say "c4" and be found. Placed with the board modules' own
// geometry (cellOrigin, bedOrigin), between the tiles and the visitors' places.

import { el } from "../board/common.js";
import { TILE, cellOrigin } from "../board/topiary.js";
import { BED, bedOrigin } from "../board/wizards_garden.js";

const LAYOUTS = {
  topiary: { files: "abcde", ranks: 5, origin: cellOrigin, size: TILE, beside: 14, below: 17 },
  wizards_garden: { files: "abcd", ranks: 4, origin: bedOrigin, size: BED, beside: 10, below: -6 },
};

export function labelCells(svg, game) {
  const layout = LAYOUTS[game];
  if (!layout) return;
  const { files, ranks, origin, size, beside, below } = layout;
  const group = el("g", { class: "coordinates", "aria-hidden": "true" });
  for (const file of files) {
    // Topiary: under the bottom row; Wizards' Garden: over the top row (its notes are below).
    const [x, y] = origin(below > 0 ? `${file}1` : `${file}${ranks}`);
    group.append(el("text", { x: x + size / 2, y: below > 0 ? y + size + below : y + below, "text-anchor": "middle" }, file));
  }
  for (let rank = 1; rank <= ranks; rank++) {
    const [x, y] = origin(`a${rank}`);
    group.append(el("text", { x: x - beside, y: y + size / 2 + 5, "text-anchor": "middle" }, String(rank)));
  }
  svg.append(group);
}
