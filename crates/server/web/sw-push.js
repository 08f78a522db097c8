// Web Push for correspondence play, pulled into the site's service worker with
// importScripts('/static/sw-push.js'). A message is the JSON the server encrypted for this
// browser (docs/correspondence.md): a title, a text naming the table and the opponents (never a
// tile), the page to open, and a tag so that a newer notice about the same table replaces the
// older one.
self.addEventListener("push", (event) => {
  let msg = {};
  try {
    msg = event.data ? event.data.json() : {};
  } catch (_) {
    msg = {};
  }
  const title = typeof msg.title === "string" ? msg.title : "fiveup";
  const options = {
    body: typeof msg.body === "string" ? msg.body : "",
    tag: typeof msg.tag === "string" ? msg.tag : "fiveup",
    icon: "/static/icon-192.png",
    badge: "/static/icon-192.png",
    data: { url: typeof msg.url === "string" && msg.url.startsWith("/") ? msg.url : "/games" },
    renotify: msg.kind === "reminder",
  };
  event.waitUntil(self.registration.showNotification(title, options));
});

// A click opens the table (or "My games"): an open tab of the site is focused and sent
// there, else a new one is opened.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(
    (event.notification.data && event.notification.data.url) || "/games",
    self.location.origin,
  ).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((tabs) => {
      for (const tab of tabs) {
        if (new URL(tab.url).origin === self.location.origin && "focus" in tab) {
          return tab.navigate(url).then((t) => (t || tab).focus());
        }
      }
      return self.clients.openWindow(url);
    }),
  );
});
