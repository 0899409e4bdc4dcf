// The page's files kept on the phone, so that it opens again with no signal.
// Network first (a new release shows at once), the phone's copy when the
// network fails. The API is never answered from here: its answers are the
// server's or an error the page handles (the queue of hands).

const CACHE = "ginref-page-v1";
const SHELL = [
  "/",
  "/web/style.css",
  "/web/app.js",
  "/web/api.js",
  "/web/cards.js",
  "/web/chart.js",
  "/web/detail.js",
  "/web/dispute-cards.js",
  "/web/disputes.js",
  "/web/dom.js",
  "/web/game.js",
  "/web/hand.js",
  "/web/i18n.js",
  "/web/knock.js",
  "/web/league.js",
  "/web/leagues-new.js",
  "/web/picker.js",
  "/web/queue.js",
  "/web/recent.js",
  "/web/rematch.js",
  "/web/presets.js",
  "/web/seats.js",
  "/web/share.js",
  "/web/words.js",
  "/web/vendor/qrcode-generator-2.0.4/qrcode.mjs",
  "/web/i18n/en.json",
  "/web/i18n/ko.json",
  "/web/i18n/vi.json",
  "/web/i18n/sk.json",
  "/web/i18n/mn.json",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin) return;
  if (url.pathname !== "/" && !url.pathname.startsWith("/web/")) return; // the API and the rest: the network's
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(url.pathname === "/" ? "/" : event.request, copy));
        }
        return response;
      })
      .catch(() => caches.match(url.pathname === "/" ? "/" : event.request)),
  );
});
