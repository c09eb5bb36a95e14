// Each game's board object (static/board/<game>.js), by the game's name as the engine and the
// pages write it: the one list of them, so a page script finds its game's board by the kind
// it is given and names no game. Imported statically, so a page's own module runs at once
// (the chat, for one, looks for the page's socket when the page has loaded).
import * as topiary from "./topiary.js";
import * as wizardsGarden from "./wizards_garden.js";

const BOARDS = { topiary, wizards_garden: wizardsGarden };

export function boardOf(kind) {
  const board = BOARDS[kind];
  // i18n: not for users
  if (!board) throw new Error(`No board object for the game ${kind}: add static/board/${kind}.js`);
  return board;
}
