// live.js decides when a live page fetches itself again (the protocol is
// in docs/performance.md, "Live pages"). The page's event stream
// announces versions: the server's clock, in microseconds, when it heard
// of a change. The page knows the version it shows (data-as-of on
// <body>). The page is fetched
// again only when a version above its own was heard, after quiet ms
// without another (a burst of results makes one fetch), but never later
// than maxWait ms after the first version it has not shown (a steady flow
// of results cannot starve it), and never while a fetch of it is in
// flight. A change may name a window w (ms): the server's word for how
// long the pages watching the tournament are to spread their fetches over
// (a thousand phones asking within the same 150 ms took the server's
// cores from the tables, issue 28). The page then waits a random part of
// it more, drawn once for the versions it has not shown, the whole still
// bounded by maxWait. A failed fetch is tried again after retry ms,
// doubling to 30 s.
// follow (below) keeps a page's event stream open across a network that
// drops without a word. app.js and table.js use them in the browser;
// web/jstest/live.test.js runs them in node.
(function (root, make) {
  "use strict";
  var api = make();
  if (typeof module === "object" && module.exports) { module.exports = api; } else { root.RevisorLive = api; }
}(this, function () {
  "use strict";

  // newScheduler: o.fetch(done) fetches the page and calls done(asOf), or
  // done(null) when it failed; o.asOf is the version shown at the start;
  // o.now, o.setTimeout and o.clearTimeout are the clock, o.random the
  // draw of the wait within a window (injected so that tests run without
  // waiting, and the same each time).
  function newScheduler(o) {
    var quiet = o.quiet || 150, maxWait = o.maxWait || 1000, retry = o.retry || 1000;
    var now = o.now || function () { return Date.now(); };
    var random = o.random || Math.random;
    var setT = o.setTimeout || function (f, ms) { return setTimeout(f, ms); };
    var clearT = o.clearTimeout || function (t) { clearTimeout(t); };
    var have = o.asOf || 0, want = 0, since = 0, timer = null, inFlight = false, failures = 0, behind = 0;
    var asked = 0; // the version wanted when the fetch in flight began
    var extra = 0; // the part of the window this page waits, drawn at since

    function arm(delay) {
      if (timer !== null) { clearT(timer); }
      timer = setT(fire, Math.max(0, delay));
    }
    function plan() {
      if (inFlight || want <= have) { return; }
      if (failures > 0) { return; } // a retry is armed
      var t = now();
      arm(Math.min(Math.max(quiet, since + quiet + extra - t), since + maxWait - t));
    }
    function fire() {
      timer = null;
      if (inFlight || want <= have) { return; }
      inFlight = true;
      asked = want;
      o.fetch(function (asOf) {
        inFlight = false;
        if (asOf === null || asOf === undefined) {
          failures++;
          arm(Math.min(30000, retry * Math.pow(2, failures - 1)));
          return;
        }
        failures = 0;
        have = Math.max(have, asOf);
        if (want <= have) { behind = 0; return; }
        // Changes heard while the fetch was under way are not in it (the
        // page's version is when its read began): new changes, fetched
        // in turn, since the first of them was heard.
        if (have >= asked) { behind = 0; plan(); return; }
        // Still behind (the server had not heard of the change yet): try
        // again after quiet ms, three times; then take the version as
        // shown, should the servers' clocks disagree.
        if (++behind > 3) { have = want; behind = 0; return; }
        since = now() - maxWait + quiet;
        plan();
      });
    }
    return {
      // heard notes a version announced by the stream, and the window w
      // (ms) its fetch is to be spread over (0 or none: fetch at once).
      heard: function (v, w) {
        if (v <= have) { return; }
        if (want <= have || (inFlight && want <= asked)) {
          since = now();
          extra = Math.floor(random() * Math.min(w || 0, maxWait - quiet));
        }
        want = Math.max(want, v);
        plan();
      },
      // showing notes the version the page shows now.
      showing: function (v) { have = Math.max(have, v); },
      state: function () { return { have: have, want: want, inFlight: inFlight }; }
    };
  }

  // follow opens the event stream at url and keeps it open for the page:
  // on maps event names ("hello", "change", "clock", "open", "error") to
  // functions of the event and the stream. The server sends an event at
  // least every heartbeat (its "ping"; the hello names the heartbeat, h
  // ms): a stream that heard nothing for twice that and a little more is
  // taken for dead (a network that dropped without a word to the browser
  // can leave it waiting on a half-open connection) and opened again, as it
  // is when the browser says the network came back ("online"). Its new
  // hello tells the page what it missed. A stream the server refused
  // (which the browser closes for good; the page's error handler hears
  // it) is opened again after REFUSED_MS. o.EventSource, o.setTimeout,
  // o.clearTimeout and o.window are injected by the tests.
  var REFUSED_MS = 60000;

  function follow(url, on, o) {
    o = o || {};
    var Source = o.EventSource || (typeof EventSource !== "undefined" ? EventSource : null);
    var win = o.window || (typeof window !== "undefined" ? window : null);
    var setT = o.setTimeout || function (f, ms) { return setTimeout(f, ms); };
    var clearT = o.clearTimeout || function (t) { clearTimeout(t); };
    var es = null, timer = null, heartbeat = 25000, closed = false;

    function arm() {
      if (timer !== null) { clearT(timer); }
      timer = setT(reopen, 2 * heartbeat + 5000);
    }
    function start() {
      es = new Source(url);
      var mine = es;
      Object.keys(on).forEach(function (name) {
        if (name === "error") { return; }
        mine.addEventListener(name, function (ev) {
          if (mine !== es) { return; }
          arm();
          on[name](ev, mine);
        });
      });
      mine.addEventListener("hello", function (ev) {
        var d = {};
        try { d = JSON.parse(ev.data) || {}; } catch (e) { d = {}; }
        if (Number(d.h) > 0) { heartbeat = Number(d.h); arm(); }
      });
      mine.addEventListener("ping", function () { if (mine === es) { arm(); } });
      mine.addEventListener("error", function (ev) {
        if (mine !== es) { return; }
        if (mine.readyState === 2) { // CLOSED: refused (the server's bound of streams): again in a minute
          if (timer !== null) { clearT(timer); }
          timer = setT(reopen, REFUSED_MS);
        }
        if (on.error) { on.error(ev, mine); }
      });
      arm();
    }
    function reopen() {
      if (closed) { return; }
      if (es) { es.close(); }
      start();
    }
    function online() { reopen(); }
    if (win && win.addEventListener) { win.addEventListener("online", online); }
    start();
    return {
      // close ends the stream for good (the page is left).
      close: function () {
        closed = true;
        if (timer !== null) { clearT(timer); timer = null; }
        if (es) { es.close(); es = null; }
        if (win && win.removeEventListener) { win.removeEventListener("online", online); }
      }
    };
  }

  return { newScheduler: newScheduler, follow: follow };
}));
