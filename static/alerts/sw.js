// The site's service worker (docs/ALERTS.md), served from /sw.js so that its scope is the
// whole site. It does one thing: show the alerts the server pushes, and open the game
// (or tournament) an alert is about when it is clicked. It caches nothing.
//
// A push carries JSON {title, body, url, tag}: public facts only, built on the server.

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let alert = {};
  try {
    alert = event.data ? event.data.json() : {};
  } catch {
    alert = { body: event.data ? event.data.text() : "" };
  }
  const title = alert.title || "Topiary Online";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: alert.body || "",
      tag: alert.tag || undefined,
      icon: "/static/img/logo.svg",
      data: { url: alert.url || "/" },
    }),
  );
});

// Only the site's own pages are opened: a URL is made relative to the worker's origin.
function target(notification) {
  const url = new URL((notification.data && notification.data.url) || "/", self.location.origin);
  return url.origin === self.location.origin ? url.href : self.location.origin + "/";
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const href = target(event.notification);
  event.waitUntil(
    (async () => {
      const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const same = open.find((client) => client.url === href);
      if (same) return same.focus();
      return self.clients.openWindow(href);
    })(),
  );
});
