// The footer's theme switch (docs: notes/PREFS_CONTRACT): "auto" follows the system's
// prefers-color-scheme, "light" and "dark" override it. The choice is kept in the browser
// (localStorage "topiary-prefs", shared with the settings page's script) for everyone,
// and saved to the account of a signed-in player.
const KEY = "topiary-prefs";
const THEMES = ["auto", "light", "dark"];

function stored() {
  try {
    const prefs = JSON.parse(localStorage.getItem(KEY) || "{}");
    return prefs && typeof prefs === "object" ? prefs : {};
  } catch {
    return {};
  }
}

function store(theme) {
  try {
    localStorage.setItem(KEY, JSON.stringify({ ...stored(), theme }));
  } catch {
    // Private browsing may refuse storage: the choice then lasts for this page.
  }
}

// JSON saves only the theme; a form post would save the whole settings form, clearing
// the sound, confirmation and language the footer knows nothing of.
function save(theme) {
  if (document.body.dataset.signedIn !== "1") return;
  const token = document.querySelector("input[name=csrfmiddlewaretoken]")?.value;
  fetch("/account/settings/", {
    method: "POST",
    headers: {
      "X-CSRFToken": token || "",
      Accept: "application/json",
      "Content-Type": "application/json",
    },
    body: JSON.stringify({ theme }),
    credentials: "same-origin",
  }).catch(() => {});
}

const root = document.documentElement;
const signedIn = document.body.dataset.signedIn === "1";
// A signed-in player's server-side choice wins; a visitor's lives in the browser.
let theme = root.dataset.theme;
if (!THEMES.includes(theme) || (!signedIn && stored().theme)) theme = stored().theme;
if (!THEMES.includes(theme)) theme = "auto";
root.dataset.theme = theme;

const select = document.querySelector("[data-theme-switch]");
if (select) {
  select.value = theme;
  select.addEventListener("change", () => {
    root.dataset.theme = select.value;
    store(select.value);
    save(select.value);
  });
}

// The footer's language switch posts to /i18n/setlang/ (cookie, and the account's
// setting when signed in); with scripts on, choosing a language is enough.
const languageForm = document.querySelector("[data-language-switch]");
if (languageForm) {
  const button = languageForm.querySelector("button[type=submit]");
  if (button) button.hidden = true;
  languageForm.querySelector("select")?.addEventListener("change", () => languageForm.submit());
}
