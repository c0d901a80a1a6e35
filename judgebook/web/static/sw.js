// judgebook service worker: the pages and files a phone has seen keep working offline.
// Network first (so a rebuilt index shows at once), the cache when offline.
"use strict";
var CACHE = "judgebook-v1";
var CORE = ["./", "static/style.css", "static/app.js", "static/icons/judgebook.svg"];

self.addEventListener("install", function (e) {
  e.waitUntil(caches.open(CACHE).then(function (c) { return c.addAll(CORE); }).catch(function () {}));
  self.skipWaiting();
});

self.addEventListener("activate", function (e) {
  e.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== CACHE; }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (e) {
  var req = e.request;
  if (req.method !== "GET" || new URL(req.url).origin !== self.location.origin) return;
  e.respondWith(fetch(req).then(function (resp) {
    if (resp.ok) {
      var copy = resp.clone();
      caches.open(CACHE).then(function (c) { c.put(req, copy); });
    }
    return resp;
  }).catch(function () {
    return caches.match(req).then(function (hit) {
      return hit || caches.match("./") || new Response("Offline, and this page was never visited.",
        {status: 503, headers: {"Content-Type": "text/plain; charset=utf-8"}});
    });
  }));
});
