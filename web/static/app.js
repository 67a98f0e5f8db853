// Revisor's pages work without this script. With it, pages that name an
// event stream (data-events on <body>) read themselves again when the
// tournament changes (when: static/live.js), and the seating search
// filters as one types.
(function () {
  "use strict";

  // letterFolds spells the letters that NFD does not take apart, as the
  // server's letterFolds (web/site/fold.go) does.
  var letterFolds = { "ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "ð": "d", "þ": "th",
    "ł": "l", "đ": "d", "ı": "i", "ħ": "h", "ŧ": "t", "ŋ": "n" };

  // foldName folds as the server's foldName: lower case, no accents, and
  // ø, æ and the like spelled out ("søren" finds "Soren", "bjorn" Björn).
  function foldName(s) {
    if (s.normalize) { s = s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").normalize("NFC"); }
    return s.toLowerCase().replace(/[øæœßðþłđıħŧŋ]/g, function (c) { return letterFolds[c]; });
  }

  function filterTables() {
    var box = document.getElementById("find");
    if (!box) { return; }
    var q = foldName(box.value.trim());
    var any = false;
    document.querySelectorAll("[data-names]").forEach(function (el) {
      var hit = q === "" || el.getAttribute("data-names").indexOf(q) >= 0;
      el.hidden = !hit;
      if (hit) { any = true; }
    });
    var none = document.getElementById("nomatch-live");
    if (none) {
      none.hidden = any || q === "";
      none.textContent = none.getAttribute("data-text").replace("%s", box.value.trim());
    }
  }

  // fetchPage reads the page again and puts its live part in place; done
  // gets the version it shows (null: the fetch failed). The browser
  // revalidates with the page's ETag, so an unchanged page costs a 304.
  function fetchPage(done) {
    fetch(window.location.href, { headers: { "X-Revisor-Refresh": "1" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) { done(null); return; }
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("live");
        var here = document.getElementById("live");
        if (fresh && here) {
          here.replaceWith(document.importNode(fresh, true));
          filterTables();
          document.body.setAttribute("data-updated", String(Date.now()));
        }
        var v = Number(doc.body.getAttribute("data-as-of")) || 0;
        document.body.setAttribute("data-as-of", String(v));
        done(v);
      })
      .catch(function () { done(null); });
  }

  // listen follows the page's event stream (RevisorLive.follow, which
  // opens it again should the network drop it): a "hello" and a "change"
  // name a version and the window to spread the fetch over; the scheduler
  // (live.js) fetches the page when it shows an older one. A "clock" asks
  // the round clock to read itself again. A stream's first event, its
  // hello, names the versions of the latest change of the tournament and
  // of its round clock that the server knows of: a page that shows an
  // older one missed a change while its stream was closed (opened after
  // the page was rendered, or again after the network dropped) and reads
  // itself, or its clock, again.
  function listen(url) {
    if (!window.EventSource || !window.RevisorLive) { return; }
    var live = window.RevisorLive.newScheduler({ fetch: fetchPage,
      asOf: Number(document.body.getAttribute("data-as-of")) || 0 });
    // clock asks the round clock to read itself (v: the change's version;
    // hello: only if it shows an older one).
    function clock(v, hello) {
      document.dispatchEvent(new CustomEvent("revisor:clock", { detail: { v: v, hello: !!hello } }));
    }
    function data(ev) {
      try { return JSON.parse(ev.data) || {}; } catch (e) { return {}; }
    }
    var on = {
      hello: function (ev) {
        var d = data(ev);
        clock(Number(d.c) || 0, true);
        if (Number(d.v) > 0) { live.heard(Number(d.v), Number(d.w) || 0); }
      },
      change: function (ev) {
        var d = data(ev);
        if (d.kind === "rounds" || d.kind === "resync") { clock(Number(d.v) || 0); }
        live.heard(Number(d.v) || Date.now() * 1000, Number(d.w) || 0);
      },
      clock: function (ev) { clock(Number(data(ev).v) || 0); },
      open: function () {
        document.body.setAttribute("data-live", "on");
        if (poll) { clearInterval(poll); poll = null; }
      },
      // A stream the server refused (503: it follows as many pages as it
      // can) is closed by the browser: read the page again every minute
      // until a stream opens again (follow tries again after a minute, and
      // when the network comes back).
      error: function (ev, es) {
        if (es.readyState === EventSource.CLOSED && !poll) {
          document.body.setAttribute("data-live", "poll");
          poll = setInterval(function () { fetchPage(function () {}); }, 60000);
        }
      }
    };
    var poll = null;
    var stream = window.RevisorLive.follow(url, on);
    // A page left for another is closed with its stream: kept open in the
    // browser's back-forward cache, the streams of pages left behind took
    // the six connections a browser opens to a server over HTTP/1.1, and
    // the seventh live page waited for the server to end one (about a
    // minute). A page the browser brings back follows again; its stream's
    // hello says whether it missed a change while away.
    window.addEventListener("pagehide", function () { if (stream) { stream.close(); stream = null; } });
    window.addEventListener("pageshow", function (ev) {
      if (ev.persisted && !stream) { stream = window.RevisorLive.follow(url, on); }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var url = document.body.getAttribute("data-events");
    if (url) { listen(url); }
    // A page whose words move with the time (the room's minutes since the
    // last entry) reads itself again in place (without a script, a meta
    // refresh in <noscript> reloads it).
    var every = Number(document.body.getAttribute("data-reread")) || 0;
    if (every > 0) { setInterval(function () { fetchPage(function () {}); }, every * 1000); }
    var box = document.getElementById("find");
    if (box) {
      box.addEventListener("input", filterTables);
      filterTables();
    }
    document.querySelectorAll("[data-print]").forEach(function (b) {
      b.hidden = false;
      b.addEventListener("click", function () { window.print(); });
    });
  });
}());

// Round clocks: an element with data-clock (the clock's JSON URL) shows
// the time left in server time. The page reads the clock, counts down by
// itself, and reads it again every 30 s and whenever the clock or the
// rounds change (revisor:clock, with the change's version), so a phone's
// own clock never matters.
(function () {
  "use strict";

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function watch(el) {
    var clock = null;
    var readAt = 0;
    // at: the version of the latest change of the clock it read (the
    // page's own at first: the clock it was rendered with).
    var at = Number(document.body.getAttribute("data-as-of")) || 0;
    function show() {
      if (!clock) { return; }
      var left = clock.remaining_seconds;
      if (clock.state === "running") {
        left = Math.max(0, Math.ceil(left - (Date.now() - readAt) / 1000));
      }
      el.className = "clock clock-" + clock.state;
      var label = el.getAttribute("data-" + clock.state);
      el.querySelector(".clock-state").textContent = label || clock.state;
      el.querySelector(".clock-time").textContent =
        (clock.state === "running" || clock.state === "paused") ? Math.floor(left / 60) + ":" + pad(left % 60) : "";
    }
    // read reads the clock, asked by a change of version v (0: none).
    function read(v) {
      fetch(el.getAttribute("data-clock"), { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (c) {
          if (c) { clock = c; readAt = Date.now(); at = Math.max(at, v || 0); show(); }
        })
        .catch(function () {});
    }
    read(0);
    setInterval(show, 1000);
    setInterval(function () { read(0); }, 30000);
    // A stream's hello names the clock's latest change: read only when it
    // is later than the one read (a read that failed left at as it was).
    document.addEventListener("revisor:clock", function (ev) {
      var d = ev.detail || {};
      if (d.hello && !(d.v > at)) { return; }
      read(d.v);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (!window.fetch) { return; }
    document.querySelectorAll("[data-clock]").forEach(watch);
  });
}());

// Confirmations: a form with data-confirm (the question) asks in a
// <dialog> before it is sent; data-confirm-ok names the button that sends
// it. Without this script the form is sent at once.
(function () {
  "use strict";

  function ask(form, submitter) {
    var dlg = document.getElementById("confirm-dialog");
    if (!dlg || !dlg.showModal) { return false; }
    document.getElementById("confirm-text").textContent = form.getAttribute("data-confirm");
    var ok = document.getElementById("confirm-ok");
    if (!ok.getAttribute("data-label")) { ok.setAttribute("data-label", ok.textContent); }
    ok.textContent = form.getAttribute("data-confirm-ok") || ok.getAttribute("data-label");
    dlg.returnValue = "";
    dlg.onclose = function () {
      if (dlg.returnValue !== "ok") { return; }
      form.setAttribute("data-confirmed", "1");
      if (form.requestSubmit) { form.requestSubmit(submitter || undefined); } else { form.submit(); }
    };
    dlg.showModal();
    return true;
  }

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.hasAttribute || !form.hasAttribute("data-confirm")) { return; }
    if (form.getAttribute("data-confirmed") === "1") {
      form.removeAttribute("data-confirmed");
      return;
    }
    if (ask(form, ev.submitter)) { ev.preventDefault(); }
  });
}());

// A form sent is not sent again from the same page: a second click (a
// double click, a tap again while the answer is on its way) on a form
// whose page is already asked for is dropped, so that it is not sent
// twice. The server's form keys cover the forms whose second send would
// do something again (app.Console); this covers the rest (a deletion, a
// ruling, a new tournament, a login). A form that a script sends itself
// (the table page's) or asks about first (data-confirm) is not marked
// until it is really sent; a page shown again from the browser's history
// takes its forms again.
(function () {
  "use strict";
  window.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (form && form.getAttribute && form.getAttribute("data-sent") === "1") {
      ev.preventDefault();
      ev.stopImmediatePropagation();
    }
  }, true);
  window.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (ev.defaultPrevented || !form || !form.getAttribute || (form.getAttribute("method") || "").toLowerCase() !== "post") { return; }
    form.setAttribute("data-sent", "1");
  });
  window.addEventListener("pageshow", function (ev) {
    if (!ev.persisted) { return; }
    var sent = document.querySelectorAll("form[data-sent]");
    for (var i = 0; i < sent.length; i++) { sent[i].removeAttribute("data-sent"); }
  });
}());
