// The table page's script. Without it the page still works (plain forms).
// With it:
//  - the code in a QR code's URL fragment (#code=...) logs the phone in: it
//    is posted like the typed code and cleared from the address bar, so it
//    never reaches a server log or the browser's history;
//  - every deal, and every correction of a stored deal, is first kept on
//    this phone (localStorage) and then sent with an Idempotency-Key, again
//    and again until the server has it: a dropped network, a reload or a
//    closed tab loses nothing, and nothing is stored twice;
//  - the page follows the tournament live (deals from another phone at the
//    table, the round clock) through the server's event stream.
(function () {
  "use strict";

  var RETRY_MS = 3000;

  function loginFromFragment() {
    var form = document.getElementById("table-login");
    if (!form) { return; }
    var m = /(?:^#|&)code=([A-Za-z0-9-]{4,32})/.exec(window.location.hash);
    if (window.history && window.history.replaceState) {
      window.history.replaceState(null, "", window.location.pathname + window.location.search);
    }
    if (!m) { return; }
    form.querySelector("[name=code]").value = m[1];
    form.submit();
  }

  // --- the outbox: deals kept on this phone until the server has them ---

  function Outbox(app) {
    this.name = "revisor.table." + app.dataset.tid + "." + app.dataset.round + "." + app.dataset.table;
  }
  Outbox.prototype.load = function () {
    try {
      return JSON.parse(window.localStorage.getItem(this.name) || "[]");
    } catch (e) {
      return [];
    }
  };
  Outbox.prototype.save = function (items) {
    window.localStorage.setItem(this.name, JSON.stringify(items));
  };

  function newKey() {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    var a = new Uint8Array(16);
    window.crypto.getRandomValues(a);
    return Array.prototype.map.call(a, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  function TablePage(app) {
    this.app = app;
    this.t = function (k) { return app.getAttribute("data-t-" + k) || k; };
    this.outbox = new Outbox(app);
    this.form = document.getElementById("deal-form");
    // fixForm is the correction form of a stored deal (?correct=n).
    this.fixForm = document.getElementById("correct-form");
    this.bridge = !!(this.form && this.form.getAttribute("data-bridge"));
    this.sending = false;
    this.timer = null;
    this.clock = null;
  }

  TablePage.prototype.start = function () {
    var self = this;
    if (this.form) {
      this.form.addEventListener("submit", function (ev) {
        ev.preventDefault();
        self.keep();
      });
    }
    if (this.fixForm) {
      this.fixForm.addEventListener("submit", function (ev) {
        ev.preventDefault();
        self.keepCorrection();
      });
      this.resumeCorrection();
    }
    window.addEventListener("online", function () { self.send(); });
    window.addEventListener("offline", function () { self.network(false); });
    this.render();
    this.send();
    this.listen();
    this.loadClock();
  };

  // keep stores the form's deal on this phone and starts sending it.
  TablePage.prototype.keep = function () {
    var fields = formFields(this.form);
    if (!Object.keys(fields).length) { return; }
    var items = this.outbox.load();
    var game = this.app.dataset.game;
    var deal = parseInt(document.getElementById("deal-number").value, 10);
    var fixing = this.form.getAttribute("data-fixing");
    items = items.filter(function (it) { return !(fixing && it.key === fixing); });
    items.push({ key: newKey(), game: game, deal: deal, fields: fields, state: "saved", at: Date.now() });
    items.sort(function (a, b) { return a.game - b.game || a.deal - b.deal; });
    this.outbox.save(items);
    this.form.removeAttribute("data-fixing");
    this.clearForm();
    this.render();
    this.send();
  };

  // formFields reads a form's filled fields (not its token, key, deal
  // number or reason).
  function formFields(form) {
    var fields = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || ["_csrf", "idempotency_key", "deal", "reason"].indexOf(el.name) >= 0) { return; }
      var v = el.value.trim();
      if (v !== "") { fields[el.name] = v; }
    });
    return fields;
  }

  // keepCorrection stores the correction form's deal and reason on this
  // phone, like a new deal, and starts sending it: a correction made
  // while the network is gone is not lost either.
  TablePage.prototype.keepCorrection = function () {
    var form = this.fixForm;
    var reason = form.elements.namedItem("reason");
    form.querySelectorAll(".field-error").forEach(function (p) { p.textContent = ""; });
    form.querySelectorAll("[aria-invalid]").forEach(function (el) { el.removeAttribute("aria-invalid"); });
    document.getElementById("deal-errors").textContent = "";
    if (reason.value.trim() === "") {
      this.showMessages(form, [{ field: "reason", text: this.t("reason") }]);
      reason.focus();
      return;
    }
    var game = this.app.dataset.game;
    var deal = parseInt(form.getAttribute("data-deal"), 10);
    var fixing = form.getAttribute("data-fixing");
    var items = this.outbox.load().filter(function (it) { return !(fixing && it.key === fixing); });
    items.push({ key: newKey(), kind: "correct", game: game, deal: deal, fields: formFields(form),
      reason: reason.value.trim(), state: "saved", at: Date.now() });
    items.sort(function (a, b) { return a.game - b.game || a.deal - b.deal; });
    this.outbox.save(items);
    form.removeAttribute("data-fixing");
    this.render();
    this.resumeCorrection();
    this.send();
  };

  // correctionHere is the correction of the shown correction form's deal
  // waiting on this phone, if any.
  TablePage.prototype.correctionHere = function () {
    if (!this.fixForm) { return null; }
    var self = this;
    return this.outbox.load().filter(function (it) {
      return it.kind === "correct" && self.correctionOfPage(it);
    }).pop() || null;
  };

  // resumeCorrection shows the correction form as the phone has it: hidden
  // behind a note while its correction waits to be sent, filled with the
  // table's values and the server's words when it was refused.
  TablePage.prototype.resumeCorrection = function () {
    var it = this.correctionHere();
    var note = document.getElementById("correct-queued");
    var waiting = !!it && it.state !== "error";
    this.fixForm.hidden = waiting;
    note.hidden = !waiting;
    if (it && it.state === "error" && this.fixForm.getAttribute("data-fixing") !== it.key) {
      this.fillCorrection(it);
    }
  };

  // fillCorrection puts a refused correction back into its form.
  TablePage.prototype.fillCorrection = function (it) {
    var form = this.fixForm;
    form.querySelectorAll("input[type=text], select, textarea").forEach(function (el) { el.value = ""; });
    Object.keys(it.fields).forEach(function (name) {
      var el = form.elements.namedItem(name);
      if (el) { el.value = it.fields[name]; }
    });
    form.elements.namedItem("reason").value = it.reason || "";
    if (it.fields.record) { form.querySelector("details.paste").open = true; }
    form.setAttribute("data-fixing", it.key);
    this.showMessages(form, it.messages || []);
  };

  TablePage.prototype.clearForm = function () {
    Array.prototype.forEach.call(this.form.elements, function (el) {
      if (el.name && (el.tagName === "SELECT" || el.type === "text" || el.tagName === "TEXTAREA")) {
        el.value = "";
        el.removeAttribute("aria-invalid");
      }
    });
    this.form.querySelectorAll(".field-error").forEach(function (p) { p.textContent = ""; });
    document.getElementById("deal-errors").textContent = "";
  };

  // nextDeal is the number the form's deal gets: after the server's deals
  // and those still on this phone.
  TablePage.prototype.nextDeal = function () {
    var live = document.getElementById("live");
    var n = parseInt(live.getAttribute("data-next"), 10);
    var game = this.app.dataset.game;
    this.outbox.load().forEach(function (it) {
      if (it.kind !== "correct" && it.game === game && it.deal >= n) { n = it.deal + 1; }
    });
    return n;
  };

  // render shows the deals waiting on this phone under the server's, each
  // with its state, and numbers the form's deal.
  TablePage.prototype.render = function () {
    var self = this;
    var body = document.getElementById("outbox");
    if (!body) { return; }
    var game = this.app.dataset.game;
    var items = this.outbox.load();
    var live = document.getElementById("live");
    var stored = parseInt(live.getAttribute("data-next"), 10) - 1;
    body.textContent = "";
    items.forEach(function (it) {
      if (it.game !== game) { return; }
      var tr = document.createElement("tr");
      tr.className = "pending";
      tr.setAttribute("data-deal", it.deal);
      tr.setAttribute("data-kind", it.kind || "deal");
      var th = document.createElement("th");
      th.scope = "row";
      th.textContent = it.deal;
      tr.appendChild(th);
      if (self.bridge) {
        self.bridgeCells(tr, it.fields);
      }
      var seats = self.bridge ? 0 : document.querySelectorAll("#deal-form fieldset.player, #correct-form fieldset.player").length;
      for (var s = 1; s <= seats; s++) {
        var td = document.createElement("td");
        td.className = "num";
        var parts = ["hand1", "hand2", "last", "hand3"].map(function (src) {
          var v = it.fields["s" + s + "_" + src];
          return v ? v.replace(/^C/, "C ") : "·";
        });
        var span = document.createElement("span");
        span.className = "parts";
        span.textContent = parts.join(" ");
        td.appendChild(span);
        tr.appendChild(td);
      }
      var st = document.createElement("td");
      st.className = "status";
      st.setAttribute("data-status", it.state);
      st.textContent = self.t(it.state === "error" ? "rejected" : it.state);
      if (it.kind === "correct") {
        var label = document.createElement("span");
        label.className = "corrected";
        label.textContent = self.t("correction");
        st.appendChild(document.createTextNode(" "));
        st.appendChild(label);
      }
      if (it.state === "error") {
        var fix = document.createElement("button");
        fix.type = "button";
        fix.className = "secondary fix";
        fix.textContent = self.t("fix");
        fix.addEventListener("click", function () { self.fix(it.key); });
        st.appendChild(document.createTextNode(" "));
        st.appendChild(fix);
      }
      tr.appendChild(st);
      body.appendChild(tr);
      // A new deal the server holds already shows in the deals above.
      if (it.kind !== "correct" && it.deal <= stored) { tr.hidden = true; }
    });
    if (this.form) {
      var n = this.form.getAttribute("data-fixing") ? parseInt(document.getElementById("deal-number").value, 10) : this.nextDeal();
      this.number(n);
    }
    var waiting = items.filter(function (it) { return it.state !== "error"; }).length;
    this.app.setAttribute("data-pending", String(waiting));
  };

  // bridgeCells writes a bridge deal waiting on this phone as the
  // deals table shows it: contract and declarer, tricks, the sides' points
  // still to come.
  TablePage.prototype.bridgeCells = function (tr, f) {
    var form = this.form;
    var text = function (name) {
      var el = form.elements.namedItem(name);
      var v = f[name] || "";
      if (!el || !el.options) { return v; }
      var o = Array.prototype.filter.call(el.options, function (x) { return x.value === v; })[0];
      return o ? o.textContent : v;
    };
    var contract = document.createElement("td");
    contract.textContent = f.record ? "…" : f.level === "pass" ? text("level") :
      text("level") + text("strain") + (f.double || "") + " " + text("declarer");
    var tricks = document.createElement("td");
    tricks.className = "num";
    tricks.textContent = f.level === "pass" ? "" : (f.tricks || "");
    tr.appendChild(contract);
    tr.appendChild(tricks);
    for (var i = 0; i < 2; i++) {
      var td = document.createElement("td");
      td.className = "num";
      td.textContent = "·";
      tr.appendChild(td);
    }
  };

  // number makes the form's deal deal n: its number, heading and (for the
  // next deal the server expects) its vulnerability.
  TablePage.prototype.number = function (n) {
    document.getElementById("deal-number").value = n;
    document.getElementById("entry-heading").textContent = this.heading(n);
    var vul = document.getElementById("entry-vul");
    if (vul) { vul.hidden = String(n) !== vul.getAttribute("data-deal"); }
  };

  // heading names deal n and its dealer (the dealers take turns).
  TablePage.prototype.heading = function (n) {
    var live = document.getElementById("live");
    var dealers = (live.getAttribute("data-dealers") || "").split("|");
    // A bridge match's deals passed out take no number of their own.
    var skipped = parseInt(live.getAttribute("data-skipped") || "0", 10);
    return this.t("entry").replace("0", String(n - skipped)).replace("%s", dealers[(n - 1) % dealers.length] || "");
  };

  // fix puts a refused deal back into the form with the server's words
  // beside its fields.
  TablePage.prototype.fix = function (key) {
    var it = this.outbox.load().filter(function (x) { return x.key === key; })[0];
    if (it && it.kind === "correct") {
      var here = this.correctionHere();
      if (here && here.key === key) {
        this.fillCorrection(it);
        this.fixForm.hidden = false;
        document.getElementById("correct-queued").hidden = true;
      } else {
        window.location.href = this.tableURL() + "?game=" + it.game + "&correct=" + it.deal;
      }
      return;
    }
    if (!it || !this.form) { return; }
    this.clearForm();
    var form = this.form;
    Object.keys(it.fields).forEach(function (name) {
      var el = form.elements.namedItem(name);
      if (el) { el.value = it.fields[name]; }
    });
    if (it.fields.record) { form.querySelector("details.paste").open = true; }
    form.setAttribute("data-fixing", key);
    this.number(it.deal);
    this.showMessages(form, it.messages || []);
    var first = form.querySelector("[aria-invalid=true]") || form.querySelector("input,select");
    if (first) { first.focus(); }
  };

  TablePage.prototype.showMessages = function (form, messages) {
    var general = document.getElementById("deal-errors");
    general.textContent = "";
    messages.forEach(function (m) {
      var el = m.field ? form.elements.namedItem(m.field) : null;
      var p = document.createElement("p");
      p.textContent = m.text;
      var holder = el && (el.closest("fieldset") || el.closest(".field"));
      var box = holder && holder.querySelector(".field-error");
      if (el) { el.setAttribute("aria-invalid", "true"); }
      if (box) {
        box.appendChild(p);
      } else {
        general.appendChild(p);
      }
    });
  };

  // send posts the oldest deal waiting on this phone, then the next, until
  // none is left, one fails for the network (tried again later) or one is
  // refused (it waits for the table to correct it; the deals after it wait
  // too, since deals are numbered).
  TablePage.prototype.send = function () {
    var self = this;
    if (this.sending) { return; }
    var items = this.outbox.load();
    var it = items.filter(function (x) { return x.state !== "error"; })[0];
    if (!it) { return; }
    // A corrected deal is stored already: a refused new deal holds back
    // only the new deals after it.
    var blocked = it.kind !== "correct" && items.some(function (x) {
      return x.state === "error" && x.kind !== "correct" && x.game === it.game && x.deal < it.deal;
    });
    if (blocked) { return; }
    var csrf = document.querySelector("#deal-form [name=_csrf], #correct-form [name=_csrf], .logout [name=_csrf]");
    var data = new URLSearchParams();
    data.set("_csrf", csrf ? csrf.value : "");
    var url = this.tableURL() + "/games/" + it.game + "/deals";
    if (it.kind === "correct") {
      url += "/" + it.deal;
      data.set("reason", it.reason);
    } else {
      data.set("deal", String(it.deal));
    }
    Object.keys(it.fields).forEach(function (k) { data.set(k, it.fields[k]); });
    this.sending = true;
    this.mark(it.key, "sending");
    fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Accept": "application/json", "Idempotency-Key": it.key,
        "Content-Type": "application/x-www-form-urlencoded" },
      body: data.toString()
    }).then(function (r) {
      return r.json().catch(function () { return { retry: true }; }).then(function (ans) {
        self.sending = false;
        self.network(true);
        if (r.ok && ans.ok) {
          self.drop(it.key);
          if (it.kind === "correct" && self.correctionOfPage(it)) {
            // This page's correction is stored: back to the game.
            window.location.replace(self.tableURL() + "?game=" + it.game + "#deals");
            return;
          }
          self.refresh();
          self.send();
        } else if (r.status === 401) {
          self.mark(it.key, "saved");
          self.notice(self.t("relogin"));
        } else if (ans.retry || r.status >= 500) {
          self.mark(it.key, "saved");
          self.later();
        } else {
          self.mark(it.key, "error", ans.messages || []);
          self.refresh();
        }
      });
    }).catch(function () {
      self.sending = false;
      self.mark(it.key, "saved");
      self.network(false);
      self.later();
    });
  };

  TablePage.prototype.later = function () {
    var self = this;
    if (this.timer) { return; }
    this.timer = setTimeout(function () { self.timer = null; self.send(); }, RETRY_MS);
  };

  TablePage.prototype.mark = function (key, state, messages) {
    var items = this.outbox.load();
    items.forEach(function (it) {
      if (it.key === key) {
        it.state = state;
        if (messages) { it.messages = messages; }
      }
    });
    this.outbox.save(items);
    this.render();
    if (state !== "error") { return; }
    var it = items.filter(function (x) { return x.key === key; })[0];
    if (it && it.kind === "correct") {
      if (this.fixForm) { this.resumeCorrection(); }
    } else if (this.form && !this.form.getAttribute("data-fixing")) {
      this.fix(key);
    }
  };

  // correctionOfPage reports whether it corrects the deal of this page's
  // correction form.
  TablePage.prototype.correctionOfPage = function (it) {
    return !!this.fixForm && it.game === this.app.dataset.game &&
      it.deal === parseInt(this.fixForm.getAttribute("data-deal"), 10);
  };

  TablePage.prototype.tableURL = function () {
    return "/t/" + encodeURIComponent(this.app.dataset.tid) + "/table";
  };

  TablePage.prototype.drop = function (key) {
    this.outbox.save(this.outbox.load().filter(function (it) { return it.key !== key; }));
    if (this.form && this.form.getAttribute("data-fixing") === key) {
      this.form.removeAttribute("data-fixing");
      this.clearForm();
    }
  };

  TablePage.prototype.network = function (up) {
    var net = document.getElementById("net");
    document.body.setAttribute("data-network", up ? "online" : "offline");
    if (up) {
      net.hidden = true;
      return;
    }
    net.hidden = false;
    net.textContent = this.t("offline");
  };

  TablePage.prototype.notice = function (text) {
    var net = document.getElementById("net");
    net.hidden = false;
    net.textContent = text;
  };

  // refresh reads the page again and takes its live part: the deals the
  // server holds (from this phone or another at the table).
  TablePage.prototype.refresh = function () {
    var self = this;
    fetch(window.location.href, { credentials: "same-origin", headers: { "X-Revisor-Refresh": "1" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) { return; }
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("live");
        var here = document.getElementById("live");
        if (!fresh || !here) { return; }
        here.replaceWith(document.importNode(fresh, true));
        var over = fresh.getAttribute("data-over") === "true";
        if (over && self.form) {
          // The game ended (on this phone or another): show it as it is now.
          window.location.reload();
          return;
        }
        self.render();
        document.body.setAttribute("data-updated", String(Date.now()));
      })
      .catch(function () {});
  };

  TablePage.prototype.listen = function () {
    var self = this;
    var url = this.app.getAttribute("data-events");
    if (!url || !window.EventSource) { return; }
    var timer = null;
    var es = new EventSource(url);
    es.addEventListener("change", function () {
      if (timer) { clearTimeout(timer); }
      timer = setTimeout(function () { self.refresh(); self.loadClock(); }, 150);
    });
    es.addEventListener("clock", function () { self.loadClock(); });
    es.addEventListener("open", function () {
      document.body.setAttribute("data-live", "on");
      self.send();
    });
  };

  // --- the round clock, in the server's time ---

  TablePage.prototype.loadClock = function () {
    var self = this;
    var url = this.app.getAttribute("data-clock-src");
    fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (c) {
        if (!c) { return; }
        // remaining_seconds is the server's: the phone's own clock may be wrong.
        self.clock = { state: c.state, remaining: c.remaining_seconds || 0, at: Date.now() };
        self.showClock();
      })
      .catch(function () {});
  };

  TablePage.prototype.showClock = function () {
    var self = this;
    var el = document.getElementById("clock");
    var c = this.clock;
    if (!c || !c.state || c.state === "idle") { el.hidden = true; return; }
    el.hidden = false;
    el.setAttribute("data-state", c.state);
    var left = c.remaining;
    if (c.state === "running") {
      left = Math.max(0, c.remaining - Math.floor((Date.now() - c.at) / 1000));
    }
    var mmss = Math.floor(left / 60) + ":" + ("0" + (left % 60)).slice(-2);
    if (c.state === "time_called") {
      el.textContent = this.t("clock-called");
    } else if (c.state === "running" && left === 0) {
      el.textContent = this.t("clock-over");
    } else if (c.state === "paused") {
      el.textContent = this.t("clock-paused").replace("%s", mmss);
    } else {
      el.textContent = this.t("clock-running").replace("%s", mmss);
    }
    if (c.state === "running" && !this.ticking) {
      this.ticking = setInterval(function () { self.showClock(); }, 1000);
    } else if (c.state !== "running" && this.ticking) {
      clearInterval(this.ticking);
      this.ticking = null;
    }
  };

  // keepOffline registers the service worker that keeps this table's
  // page for a reload without network (scope: this table page only).
  function keepOffline() {
    if (!navigator.serviceWorker) { return; }
    var path = window.location.pathname;
    navigator.serviceWorker.register("/static/sw.js", { scope: path }).catch(function () {});
  }

  document.addEventListener("DOMContentLoaded", function () {
    loginFromFragment();
    var app = document.getElementById("table-app");
    if (app) {
      keepOffline();
      new TablePage(app).start();
    }
  });
}());
