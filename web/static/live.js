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
// app.js uses it in the browser; web/jstest/live.test.js runs it in node.
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

  return { newScheduler: newScheduler };
}));
