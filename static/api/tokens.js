// The tokens page: a copy button for the new token's one-time secret. Without the
// clipboard (an old browser, a page not served over HTTPS) the secret is selected
// instead, ready for the keyboard's copy.

const button = document.querySelector("[data-copy]");

if (button) {
  const secret = document.getElementById(button.dataset.copy);
  const status = document.querySelector("[data-copy-status]");

  const select = () => {
    const range = document.createRange();
    range.selectNodeContents(secret);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    secret.focus();
  };

  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(secret.textContent.trim());
      status.textContent = gettext("Copied.");
    } catch {
      select();
      status.textContent = gettext("Selected: copy it with Ctrl+C (⌘C on a Mac).");
    }
  });
  button.hidden = false;
}
