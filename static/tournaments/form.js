// The create-a-tournament form: show only the chosen format's own fields and hold
// "Players per game" and "Most players" to what that format allows. The server
// checks everything again; this only keeps people from filling in what does not apply.
const form = document.querySelector("form[data-tournament-form]");
if (form) {
  const format = form.elements.format;
  const pairs = (text) => Object.fromEntries(
    (text || "").split(" ").filter(Boolean).map((pair) => pair.split(":")),
  );
  const update = () => {
    const chosen = format.value;
    for (const input of form.querySelectorAll("[data-formats]")) {
      const applies = input.dataset.formats.split(" ").includes(chosen);
      const field = input.closest(".field");
      field.hidden = !applies;
      input.disabled = !applies;
    }
    const size = form.elements.table_size;
    const sizes = (pairs(size.dataset.sizes)[chosen] || "").split(",");
    for (const option of size.options) option.disabled = !sizes.includes(option.value);
    if (size.selectedOptions[0]?.disabled) size.value = sizes[0];
    const most = form.elements.max_players;
    const limit = pairs(most.dataset.most)[chosen];
    if (limit) {
      most.max = limit;
      if (Number(most.value) > Number(limit)) most.value = limit;
    }
  };
  format.addEventListener("change", update);
  update();
}
