// Each game's board object, found by the game's name as the engine and the pages write it:
// static/board/<kind>.js, loaded when a page first asks for it, so a new game's board script
// is found without a line in any shared file. A game without a board script of its own
// (one registered with only its engine module, say) is drawn by generic.js, from the
// position's cells and the legal moves' notation (docs/subsystems/front-end.md, "Boards").
//
// ``boardOf`` returns a promise: a page awaits it before drawing. The game page opens its
// socket first, since the chat looks for it at "load" and the window's load does not wait
// for a module's top-level await.

// A game's name as the registry allows it; nothing else is put into a script's address.
const NAME = /^[a-z][a-z0-9_]*$/;
const loaded = new Map();

export function boardOf(kind) {
  if (!loaded.has(kind)) {
    const own = NAME.test(kind) ? import(`./${kind}.js`) : Promise.reject(new Error("not a game's name"));
    loaded.set(kind, own.catch(() => import("./generic.js")));
  }
  return loaded.get(kind);
}
