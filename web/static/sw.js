// The table page's service worker. The page registers it for its own
// path (/t/{tid}/table) only; the server allows that scope with the
// Service-Worker-Allowed header.
//
// It keeps the last table page the phone saw (each load and each refresh
// of its live part, kept before the page is given it) and the page's
// static files, and answers from them
// when the network is gone: a reload in a venue without network still
// shows the table, and the page's script shows the deals waiting on this
// phone (they live in localStorage, not here). Everything else goes to
// the network untouched, and while the network answers it always wins.
"use strict";

var CACHE = "revisor-table-v1";

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (ev) {
  ev.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n !== CACHE; }).map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

// kept reports whether a request is one this worker keeps: a GET of the
// table page itself (not its clock or forms) or of a static file.
function kept(req, url) {
  if (req.method !== "GET" || url.origin !== self.location.origin) { return false; }
  if (url.pathname.indexOf("/static/") === 0) { return true; }
  return new URL(self.registration.scope).pathname === url.pathname;
}

self.addEventListener("fetch", function (ev) {
  var req = ev.request;
  var url = new URL(req.url);
  if (req.method === "POST" && /\/table\/logout$/.test(url.pathname)) {
    // Leaving the table: nothing of it stays on the phone (the worker
    // lives until the copy is gone).
    ev.waitUntil(caches.delete(CACHE));
    return;
  }
  if (!kept(req, url)) { return; }
  ev.respondWith(fetch(req).then(function (resp) {
    if (!resp.ok || resp.type !== "basic") { return resp; }
    // The copy is kept before the page gets the answer: a page the phone
    // showed is one a reload without network finds. Put while answering,
    // with nothing waiting for it, the copy could come after a reload
    // soon after, or never, were the worker stopped meanwhile.
    var copy = resp.clone();
    return caches.open(CACHE).then(function (c) { return c.put(req, copy); })
      .then(function () { return resp; }, function () { return resp; });
  }).catch(function (err) {
    return caches.open(CACHE).then(function (c) {
      return c.match(req, { ignoreVary: true }).then(function (hit) {
        return hit || c.match(req, { ignoreVary: true, ignoreSearch: true });
      });
    }).then(function (hit) {
      if (hit) { return hit; }
      throw err;
    });
  }));
});
