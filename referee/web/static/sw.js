// Service worker: the app's static files open instantly from the phone's cache, a game's page
// and its live scoreboard open from the last good copy when the server cannot be reached, and
// any other page says so plainly.
"use strict";

const CACHE = "referee-static-v2";
// The last good copy of each game page and of its scoreboard fragment, network first.
const PAGES = "referee-pages-v1";
const OFFLINE = "/offline";
const ASSETS = [
  "/static/style.css", "/static/htmx.min.js", "/static/app.js", "/static/table.js", "/static/icon.svg",
  "/static/icon-192.png", "/static/icon-512.png", "/static/manifest.webmanifest", OFFLINE,
];
// /games/<id> (the scorer's page and the watch link's page) and /games/<id>/scoreboard.
const GAME_PAGE = /^\/games\/(?!new$)[^/]+$/;
const SCOREBOARD = /^\/games\/[^/]+\/scoreboard$/;
// An unchanged scoreboard (same ETag) is written again at most this often, so that "scores
// as of" stays right to the minute without writing to the phone's storage every poll.
const REWRITE_MS = 30 * 1000;
const written = new Map();

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(ASSETS)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n !== CACHE && n !== PAGES).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

// A page opened before this worker took over asks for its own copy to be kept.
self.addEventListener("message", (event) => {
  const path = event.data && event.data.keep;
  if (typeof path !== "string" || !GAME_PAGE.test(path)) { return; }
  event.waitUntil(fetch(path, { credentials: "same-origin" })
    .then((response) => (response.status === 200 ? remember(path, response) : null))
    .catch(() => null));
}, false);

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

// Keep a copy with the time it was fetched.
function remember(path, response) {
  return response.blob().then((body) => {
    const headers = new Headers(response.headers);
    const at = Date.now();
    headers.set("X-Stored-At", String(at));
    headers.delete("Content-Encoding");
    headers.delete("Content-Length");
    written.set(path, { etag: response.headers.get("ETag"), at });
    return caches.open(PAGES).then((cache) => cache.put(path, new Response(body, {
      status: response.status, statusText: response.statusText, headers,
    })));
  });
}

function stored(path) {
  return caches.open(PAGES).then((cache) => cache.match(path, { ignoreSearch: true, ignoreVary: true }));
}

// A kept copy answered in place of the server, marked so that the page can say how old it is.
function offlineCopy(cached, page) {
  const at = cached.headers.get("X-Stored-At") || "0";
  const headers = new Headers(cached.headers);
  headers.set("X-Offline-Copy", at);
  ["ETag", "Content-Length", "Content-Encoding"].forEach((name) => headers.delete(name));
  return cached.text().then((text) => {
    // <main data-offline-copy="…">: the page itself came from the cache (see app.js)
    const body = page ? text.replace("<main", `<main data-offline-copy="${at}"`) : text;
    return new Response(body, { status: 200, headers });
  });
}

// A game page: the server's answer when it can be reached (and a copy of it kept), else the
// last copy, else the offline page.
function gamePage(event, path) {
  const request = event.request;
  return fetch(request).then((response) => {
    if (response.status === 200 && response.type === "basic" && !response.redirected) {
      event.waitUntil(remember(path, response.clone()).catch(() => null));
    }
    return response;
  }).catch(() => stored(path).then((cached) => {
    if (cached) { return offlineCopy(cached, true); }
    return request.mode === "navigate" ? caches.match(OFFLINE) : Response.error();
  }));
}

// The live scoreboard, polled every 2 s: kept when it changes (and now and then when it does
// not); the kept copy is answered, marked, when the server cannot be reached.
function scoreboard(event, path) {
  return fetch(event.request).then((response) => {
    const last = written.get(path);
    const etag = response.headers.get("ETag");
    if (response.status === 200 && (!last || !etag || last.etag !== etag || Date.now() - last.at > REWRITE_MS)) {
      event.waitUntil(remember(path, response.clone()).catch(() => null));
    }
    return response;
  }).catch(() => stored(path).then((cached) => (cached ? offlineCopy(cached, false) : Response.error())));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") { return; }
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(staleWhileRevalidate(request));
  } else if (GAME_PAGE.test(url.pathname)) {
    event.respondWith(gamePage(event, url.pathname));
  } else if (SCOREBOARD.test(url.pathname)) {
    event.respondWith(scoreboard(event, url.pathname));
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
  }
});
