// The lobby's new-game forms offer only what the chosen game takes: its numbers of
// players and its rule options, read from data attributes the server writes from the
// engine's game definitions (games/forms.py). The server checks the choice again.
const pairs = (text) => Object.fromEntries(
  (text || "").split(" ").filter(Boolean).map((pair) => pair.split(":")),
);

for (const choice of document.querySelectorAll("select[data-game-choice]")) {
  const form = choice.form;
  const update = () => {
    const game = choice.value;
    const players = form.querySelector("select[data-seats]");
    if (players) {
      const seats = (pairs(players.dataset.seats)[game] || "").split(",");
      for (const option of players.options) option.disabled = !seats.includes(option.value);
      if (players.selectedOptions[0]?.disabled) players.value = seats[0];
    }
    let offered = 0;
    for (const box of form.querySelectorAll("input[data-games]")) {
      const applies = box.dataset.games.split(" ").includes(game);
      box.disabled = !applies;
      box.closest(".field").hidden = !applies;
      if (applies) offered += 1;
    }
    const details = form.querySelector("details.rule-options");
    if (details) details.hidden = offered === 0;
  };
  choice.addEventListener("change", update);
  update();
}
