// Preferences on every page (docs/subsystems/front-end.md, "Preferences"): a classic script in
// <head>, so the theme is set before the first paint. Signed-in players' preferences
// come from the server (the attributes base.html renders); signed-out visitors keep
// theirs in localStorage "topiary-prefs", applied here to the same attributes. The
// language is not among them: the server renders every page in it (<html lang> too),
// from the player's setting, else the django_language cookie, else the browser's.
(function () {
  "use strict";
  var KEY = "topiary-prefs";
  var DEFAULTS = { sound: true, confirm_moves: true, theme: "auto", coordinates: true, animation: "normal" };
  var THEMES = ["auto", "light", "dark"];
  var ANIMATIONS = ["none", "fast", "normal", "slow"];
  var script = document.currentScript;
  var signedIn = !!(script && script.dataset.signedIn === "1");

  function stored() {
    try {
      var value = JSON.parse(window.localStorage.getItem(KEY) || "{}");
      return value && typeof value === "object" ? value : {};
    } catch (error) {
      return {};
    }
  }

  function store(changes) {
    var prefs = Object.assign(stored(), changes);
    try {
      window.localStorage.setItem(KEY, JSON.stringify(prefs));
    } catch (error) {
      // Private browsing may refuse storage: the page still shows the choice until reload.
    }
    return prefs;
  }

  function applyTheme(theme) {
    if (THEMES.indexOf(theme) !== -1) document.documentElement.dataset.theme = theme;
  }

  function applyBody(prefs) {
    var body = document.body;
    if (!body) return;
    if (typeof prefs.sound === "boolean") body.dataset.sound = prefs.sound ? "1" : "0";
    if (typeof prefs.confirm_moves === "boolean") {
      body.dataset.confirmMoves = prefs.confirm_moves ? "1" : "0";
    }
    // The boards read these as they draw (static/board/common.js, board.css).
    if (typeof prefs.coordinates === "boolean") body.dataset.coordinates = prefs.coordinates ? "1" : "0";
    if (ANIMATIONS.indexOf(prefs.animation) !== -1) body.dataset.animation = prefs.animation;
  }

  function apply(prefs) {
    applyTheme(prefs.theme);
    applyBody(prefs);
  }

  // The settings form, for visitors: fill it from the browser and save there. A new
  // language goes to the server with the form, which keeps it in the cookie and answers
  // with the page in that language.
  function wireForm() {
    var form = document.querySelector("form[data-prefs-form]");
    if (!form || signedIn) return;
    var prefs = Object.assign({}, DEFAULTS, stored());
    Object.keys(DEFAULTS).forEach(function (name) {
      var field = form.elements[name];
      if (!field) return;
      if (field.type === "checkbox") field.checked = !!prefs[name];
      else field.value = prefs[name];
    });
    var language = form.elements.language;
    var languageShown = language ? language.value : "";
    form.addEventListener("submit", function (event) {
      var changes = {};
      Object.keys(DEFAULTS).forEach(function (name) {
        var field = form.elements[name];
        if (!field) return;
        changes[name] = field.type === "checkbox" ? field.checked : field.value;
      });
      apply(store(changes));
      if (language && language.value !== languageShown) return;
      event.preventDefault();
      var status = form.querySelector("[data-prefs-status]");
      if (status) status.textContent = gettext("Saved in this browser.");
    });
  }

  if (!signedIn) applyTheme(stored().theme);

  document.addEventListener("DOMContentLoaded", function () {
    if (!signedIn) apply(stored());
    wireForm();
  });

  window.topiaryPrefs = {
    signedIn: signedIn,
    read: function () {
      return Object.assign({}, DEFAULTS, stored());
    },
    save: store,
    apply: apply,
  };
})();
