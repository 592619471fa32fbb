// Headroom's service worker: the site works from a bookmark with the network
// off. It precaches exactly the files of one build, serves them cache-first,
// and keeps each build in a cache of its own, so a page never mixes files of
// two builds. `cargo xtask dist` and `headroom compile` rewrite the next line
// with the build's files and a version made of their hashes.
const BUILD = { version: "dev", files: [] };

const CACHE = "headroom-" + BUILD.version;
// URLs resolve against this script's own location: the site works under any sub-path.
const FILES = BUILD.files.map((file) => new URL(file, self.location).href);

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)));
});

// A new build waits until the page says the user chose to reload, so open
// pages keep the build they started with.
self.addEventListener("message", (event) => {
  if (event.data === "skip-waiting") self.skipWaiting();
});

// Old builds' caches go; pages already open are taken over (the first visit
// too), and boot.js reloads any that ran an older build, so none mixes two.
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(names.filter((name) => name.startsWith("headroom-") && name !== CACHE).map((name) => caches.delete(name))),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  // The page itself, under whatever name it was bookmarked (…/, …/index.html).
  const key = request.mode === "navigate" ? new URL("./", self.location).href : url.origin + url.pathname;
  if (!FILES.includes(key) && !(request.mode === "navigate")) return;
  event.respondWith(
    caches.open(CACHE).then((cache) => cache.match(key).then((hit) => hit || fetch(request))),
  );
});
