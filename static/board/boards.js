// Each game's board object, found by the game's name as the engine and the pages write it.
// The house's games are imported here, so their boards are there at once: a page's
// ``await boardOf(kind)`` on one resolves before the page's load event (the chat, for one,
// looks for the game page's socket then). Any other game's board, static/board/<kind>.js,
// is loaded when a page first asks for it, with no line here; a game without a board
// script of its own (one registered with only its engine module, say) is drawn by
// generic.js from its position's cells and its legal moves' notation
// (docs/subsystems/front-end.md, "Boards"). A page awaits what ``boardOf`` returns.
import * as topiary from "./topiary.js";
import * as wizardsGarden from "./wizards_garden.js";

const HOUSE = { topiary, wizards_garden: wizardsGarden };
// A game's name as the registry allows it; nothing else is put into a script's address.
const NAME = /^[a-z][a-z0-9_]*$/;
const loading = new Map();

export function boardOf(kind) {
  if (HOUSE[kind]) return HOUSE[kind];
  if (!loading.has(kind)) {
    const own = NAME.test(kind) ? import(`./${kind}.js`) : Promise.reject(new Error("not a game's name"));
    loading.set(kind, own.catch(() => import("./generic.js")));
  }
  return loading.get(kind);
}
