// Revisor's pages work without this script. With it, pages that name an
// event stream (data-events on <body>) read themselves again when the
// tournament changes, and the seating search filters as one types.
(function () {
  "use strict";

  function filterTables() {
    var box = document.getElementById("find");
    if (!box) { return; }
    var q = box.value.trim().toLowerCase();
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

  function refresh() {
    fetch(window.location.href, { headers: { "X-Revisor-Refresh": "1" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) { return; }
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("live");
        var here = document.getElementById("live");
        if (fresh && here) {
          here.replaceWith(document.importNode(fresh, true));
          filterTables();
          document.body.setAttribute("data-updated", String(Date.now()));
        }
      })
      .catch(function () {});
  }

  function listen(url) {
    if (!window.EventSource) { return; }
    var timer = null;
    var es = new EventSource(url);
    es.addEventListener("change", function () {
      if (timer) { clearTimeout(timer); }
      timer = setTimeout(refresh, 150);
    });
    es.addEventListener("open", function () {
      document.body.setAttribute("data-live", "on");
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var url = document.body.getAttribute("data-events");
    if (url) { listen(url); }
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
