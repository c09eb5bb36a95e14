// The alerts settings page (docs/ALERTS.md): turns Web Push on in this browser. It
// registers the site's service worker (/sw.js), asks for permission, subscribes with
// the site's VAPID public key and hands the subscription to the server; the list of
// browsers, removing one and the test alert are plain forms.
/* global gettext */

const section = document.querySelector("[data-push]");
const button = section.querySelector("[data-push-on]");
const status = section.querySelector("[data-push-status]");
const { publicKey } = JSON.parse(document.getElementById("push-config").textContent);
const csrf = document.querySelector("[name=csrfmiddlewaretoken]").value;

function keyBytes(base64url) {
  const base64 = (base64url + "=".repeat((4 - (base64url.length % 4)) % 4))
    .replace(/-/g, "+")
    .replace(/_/g, "/");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

// "Firefox on Linux": enough to tell one's browsers apart in the list.
function label() {
  const agent = navigator.userAgent;
  const browser =
    [
      ["Edg/", "Edge"],
      ["OPR/", "Opera"],
      ["Firefox/", "Firefox"],
      ["Chrome/", "Chrome"],
      ["Safari/", "Safari"],
    ].find(([mark]) => agent.includes(mark))?.[1] || gettext("A browser");
  const system =
    [
      ["Android", "Android"],
      ["iPhone", "iOS"],
      ["iPad", "iPadOS"],
      ["Windows", "Windows"],
      ["Mac OS", "macOS"],
      ["Linux", "Linux"],
    ].find(([mark]) => agent.includes(mark))?.[1] || "";
  return system ? `${browser} · ${system}` : browser;
}

async function save(subscription) {
  const response = await fetch(section.dataset.subscribeUrl, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
    body: JSON.stringify({ subscription: subscription.toJSON(), label: label() }),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.error || gettext("The server did not keep it."));
}

async function turnOn() {
  button.disabled = true;
  try {
    const permission = await Notification.requestPermission();
    if (permission !== "granted") {
      status.textContent = gettext("Alerts are blocked for this site in this browser's settings.");
      return;
    }
    const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    await navigator.serviceWorker.ready;
    const subscription =
      (await registration.pushManager.getSubscription()) ||
      (await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(publicKey),
      }));
    await save(subscription);
    window.location.reload();
  } catch (error) {
    status.textContent = `${gettext("Alerts could not be turned on:")} ${error.message}`;
  } finally {
    button.disabled = false;
  }
}

// This browser's entry in the list: the server shows each endpoint's SHA-256 only.
async function listed(subscription) {
  const bytes = new TextEncoder().encode(subscription.endpoint);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  return section.querySelector(`[data-endpoint-digest="${hex}"]`);
}

async function show() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    return; // the page's text already says this browser cannot
  }
  const registration = await navigator.serviceWorker.getRegistration("/");
  const subscription = registration && (await registration.pushManager.getSubscription());
  const entry = subscription && (await listed(subscription));
  if (entry && Notification.permission === "granted") {
    entry.querySelector(".push-here").hidden = false;
    status.textContent = gettext("Alerts are on in this browser.");
    return;
  }
  status.textContent = "";
  button.hidden = false;
  button.addEventListener("click", turnOn);
}

show();
