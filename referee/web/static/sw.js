// Service worker: the app's static files open instantly from the phone's cache, and a page
// that needs the server says so plainly when the phone is offline.
"use strict";

const CACHE = "referee-static-v1";
const OFFLINE = "/offline";
const ASSETS = [
  "/static/style.css", "/static/htmx.min.js", "/static/app.js", "/static/icon.svg",
  "/static/icon-192.png", "/static/icon-512.png", "/static/manifest.webmanifest", OFFLINE,
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(ASSETS)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

// Static files: answer from the cache at once and refresh it in the background.
function staleWhileRevalidate(request) {
  return caches.open(CACHE).then((cache) => cache.match(request).then((cached) => {
    const fresh = fetch(request).then((response) => {
      if (response.ok) { cache.put(request, response.clone()); }
      return response;
    }).catch(() => cached);
    return cached || fresh;
  }));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") { return; }
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(staleWhileRevalidate(request));
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
  }
});
