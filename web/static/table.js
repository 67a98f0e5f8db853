// The table page's script. Without it the page still works (plain forms).
// With it:
//  - the code in a QR code's URL fragment (#code=...) logs the phone in: it
//    is posted like the typed code and cleared from the address bar, so it
//    never reaches a server log or the browser's history;
//  - every deal, and every correction of a stored deal, is first kept on
//    this phone (localStorage) and then sent with an Idempotency-Key
//    under the number it was typed for (tablequeue.js holds the rules,
//    docs/table-protocol.md the protocol): a dropped network, a reload or
//    a closed tab loses nothing, nothing is stored twice, and an entry the
//    server refused or found in conflict waits at the top of the page for
//    the table's decision;
//  - the page follows its table live (deals from another phone at the
//    table, the round clock, a new draw) through the server's event stream.
(function () {
  "use strict";

  var RETRY_MS = 3000;
  var CLOCK_RETRY_MS = 5000; // a failed read of the round clock is tried again after it

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

  // --- the queue: entries kept on this phone until the server has them ---
  // The queue's rules live in tablequeue.js (docs/table-protocol.md); this
  // part gives it localStorage, fetch and the page.

  function Outbox(app) {
    this.name = "revisor.table." + app.dataset.tid + "." + app.dataset.round + "." + app.dataset.table;
  }
  Outbox.prototype.load = function () {
    var items;
    try {
      items = JSON.parse(window.localStorage.getItem(this.name) || "[]");
    } catch (e) {
      items = [];
    }
    // Entries kept by the page before the queue had states of its own.
    return items.map(function (it) {
      if (it.state === "saved") { it.state = "queued"; }
      if (it.state === "error") { it.state = "refused"; it.answer = { messages: it.messages || [] }; }
      it.kind = it.kind || "deal";
      it.base = it.base || { deals: 0, after: "" };
      return it;
    });
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
    var self = this;
    this.app = app;
    this.t = function (k) { return app.getAttribute("data-t-" + k) || k; };
    this.form = document.getElementById("deal-form");
    // fixForm is the correction form of a stored deal (?correct=n).
    this.fixForm = document.getElementById("correct-form");
    this.bridge = !!(this.form && this.form.getAttribute("data-bridge"));
    this.sources = (app.dataset.sources || "").split(" ");
    this.game = parseInt(app.dataset.game, 10);
    // lock is the number and base of the deal being typed: fixed at the
    // first keystroke, so that no live refresh renumbers it.
    this.lock = null;
    this.clock = null;
    // clockAt: the version of the latest change of the clock this page
    // read or heard of (the stream's hello, listen).
    this.clockAt = Number(app.dataset.asOf) || 0;
    this.q = new window.TableQueue.Client(new Outbox(app), {
      send: function (it) { return self.post(it); },
      read: function (g) { return self.read(g); }
    }, function () { self.render(); });
    this.q.onRead = function (g, game) { self.took(game); };
    this.q.onStored = function (it) { self.stored(it); };
  }

  TablePage.prototype.start = function () {
    var self = this;
    if (this.form) {
      this.form.addEventListener("input", function () {
        if (!self.lock && !self.form.getAttribute("data-fixing")) { self.lock = self.q.form(self.game); self.render(); }
      });
      this.form.addEventListener("change", function () {
        if (!self.lock && !self.form.getAttribute("data-fixing")) { self.lock = self.q.form(self.game); self.render(); }
      });
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
    }
    window.addEventListener("online", function () { self.q.reconnect(self.game); });
    window.addEventListener("offline", function () { self.network(false); });
    setInterval(function () { if (self.q.offline) { self.q.retry(); } }, RETRY_MS);
    this.q.learn(this.game, this.liveGame(document));
    var latest = parseInt(this.app.dataset.latest || "0", 10);
    if (latest > parseInt(this.app.dataset.round, 10)) { this.drawn = latest; this.gone(); }
    this.render();
    this.q.pump();
    this.listen();
    this.loadClock();
  };

  // liveGame reads the game as a page (this one, or a refresh) shows it.
  TablePage.prototype.liveGame = function (doc) {
    var live = doc.getElementById("live");
    var rows = live ? live.querySelectorAll("#deals > tbody:first-of-type > tr[data-deal]") : [];
    var deals = Array.prototype.map.call(rows, function (tr) {
      // null: the page cannot say what the deal holds (the server will).
      try { return JSON.parse(tr.getAttribute("data-fields") || "null"); } catch (e) { return null; }
    });
    var n = live ? parseInt(live.getAttribute("data-next"), 10) - 1 : 0;
    while (deals.length < n) { deals.push(null); } // a bridge match: numbers only
    return { deals: deals, over: !!live && live.getAttribute("data-over") === "true", doc: doc };
  };

  // keep queues the form's deal, under the number it was typed for.
  TablePage.prototype.keep = function () {
    var fields = formFields(this.form);
    if (!Object.keys(fields).length) { return; }
    var fixing = this.form.getAttribute("data-fixing");
    this.form.removeAttribute("data-fixing");
    if (fixing) {
      this.q.fix(fixing, fields, newKey());
    } else {
      var f = this.lock || this.q.form(this.game);
      this.q.add({ key: newKey(), kind: "deal", game: this.game, deal: f.deal, base: f.base, fields: fields, at: Date.now() });
    }
    this.lock = null;
    this.clearForm();
    this.render();
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

  // keepCorrection queues the correction form's deal and reason, like a
  // new deal: a correction made while the network is gone is not lost.
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
    var fixing = form.getAttribute("data-fixing");
    form.removeAttribute("data-fixing");
    if (fixing) {
      this.q.fix(fixing, formFields(form), newKey(), reason.value.trim());
    } else {
      this.q.add({ key: newKey(), kind: "correct", game: this.game, deal: parseInt(form.getAttribute("data-deal"), 10),
        fields: formFields(form), reason: reason.value.trim(), at: Date.now() });
    }
  };

  // stored follows an entry the server took: this page's correction
  // brings the phone back to the game.
  TablePage.prototype.stored = function (it) {
    if (it.kind === "correct" && this.fixForm && it.game === this.game &&
        it.deal === parseInt(this.fixForm.getAttribute("data-deal"), 10)) {
      window.location.replace(this.tableURL() + "?game=" + it.game + "#deals");
    }
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

  // seatParts is seat s's values of an entry as the deals table shows
  // them, in the sheet's columns (data-sources: phase 1, phase 2, last
  // trick or Chicago, final hand; "·": none).
  function seatParts(sources, fields, s) {
    return sources.map(function (src) {
      var v = fields["s" + s + "_" + src];
      return v ? String(v).replace(/^C/, "C ") : "·";
    });
  }

  // describe writes an entry's values in the players' names: "Anna 3 · · 5;
  // Bo · 6 · ·" (phase 1, phase 2, last trick or Chicago, final hand).
  TablePage.prototype.describe = function (fields) {
    if (!fields) { return ""; }
    if (fields.record) { return fields.record; }
    var out = [], sources = this.sources;
    document.querySelectorAll("#deals thead th.name").forEach(function (th, i) {
      var parts = seatParts(sources, fields, i + 1);
      if (parts.some(function (v) { return v !== "·"; })) { out.push(th.getAttribute("aria-label") + " " + parts.join(" ")); }
    });
    if (this.bridge) { return Object.keys(fields).map(function (k) { return fields[k]; }).join(" "); }
    return out.join("; ") || "–";
  };

  // render shows the queue: entries needing a decision at the top of the
  // page, the rest under the server's deals, each with its state; and
  // numbers the form when nobody types in it.
  TablePage.prototype.render = function () {
    var self = this;
    var Q = window.TableQueue;
    var items = this.q.items();
    this.renderDecisions(items);
    var body = document.getElementById("outbox");
    if (body) {
      body.textContent = "";
      items.forEach(function (it) {
        var st = Q.shownState(items, it);
        if (it.game !== self.game || st === Q.CONFLICT || st === Q.REFUSED) { return; }
        body.appendChild(self.row(items, it, st));
      });
    }
    if (this.form && !this.form.getAttribute("data-fixing")) {
      this.number((this.lock || this.q.form(this.game)).deal);
    }
    if (this.fixForm) { this.resumeCorrection(items); }
    this.reopen(items);
    var c = Q.counts(items);
    this.app.setAttribute("data-pending", String(c.pending + c.waiting));
    this.app.setAttribute("data-conflicts", String(c.conflicts));
    this.app.setAttribute("data-refused", String(c.refused));
    this.network(!this.q.offline);
    this.report(c);
    this.leaving(items);
  };

  // leaving makes "Leave this table" ask first while this phone holds
  // entries the server does not have, naming them and saying that they
  // stay on this phone (the queue is kept per table in localStorage, and
  // sent when this table's code is entered here again).
  TablePage.prototype.leaving = function (items) {
    var self = this;
    var form = document.querySelector("form.logout");
    if (!form) { return; }
    if (!items.length) {
      form.removeAttribute("data-confirm");
      form.removeAttribute("data-confirm-ok");
      return;
    }
    var list = items.map(function (it) {
      return self.t("dealnum").replace("%s", String(it.deal)) + " (" + self.describe(it.fields) + ")";
    }).join("; ");
    form.setAttribute("data-confirm", self.t("leaveask").replace("%s", list));
    form.setAttribute("data-confirm-ok", self.t("leaveok"));
  };

  // report tells the room view what this phone holds for a decision,
  // when that changed since the phone last said (one request, not one
  // per deal).
  TablePage.prototype.report = function (c) {
    var self = this;
    var name = "revisor.table.report." + this.app.dataset.tid + "." + this.app.dataset.round + "." + this.app.dataset.table;
    var now = c.conflicts + " " + c.refused;
    var said = window.localStorage.getItem(name) || "0 0";
    if (now === said || this.reporting || this.q.offline || this.q.stopped) { return; }
    var phone = window.localStorage.getItem("revisor.phone");
    if (!phone) { phone = newKey(); window.localStorage.setItem("revisor.phone", phone); }
    var csrf = document.querySelector("#deal-form [name=_csrf], #correct-form [name=_csrf], .logout [name=_csrf]");
    var data = new URLSearchParams({ _csrf: csrf ? csrf.value : "", phone: phone,
      conflicts: String(c.conflicts), refused: String(c.refused) });
    this.reporting = true;
    fetch(this.tableURL() + "/queue", { method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: data.toString() })
      .then(function (r) { if (r.ok) { window.localStorage.setItem(name, now); } })
      .catch(function () {})
      .then(function () { self.reporting = false; });
  };

  // reopen puts an entry refused just now back into its form, with the
  // server's words beside its fields, when nobody is typing in the form
  // (it stays listed at the top of the page, fixable or discardable).
  TablePage.prototype.reopen = function (items) {
    var self = this;
    this.reopened = this.reopened || {};
    items.forEach(function (it) {
      if (it.state !== "refused" || self.reopened[it.key] || it.game !== self.game) { return; }
      self.reopened[it.key] = true;
      var form = it.kind === "correct" ? self.fixForm : self.form;
      if (!form || form.getAttribute("data-fixing") || (form === self.form && self.lock)) { return; }
      self.fix(it.key);
    });
  };

  // row is a queued entry as a line of the deals table.
  TablePage.prototype.row = function (items, it, st) {
    var tr = document.createElement("tr");
    tr.className = "pending";
    tr.setAttribute("data-deal", it.deal);
    tr.setAttribute("data-kind", it.kind);
    var th = document.createElement("th");
    th.scope = "row";
    th.textContent = it.deal;
    tr.appendChild(th);
    if (this.bridge) {
      this.bridgeCells(tr, it.fields);
    }
    var seats = this.bridge ? 0 : document.querySelectorAll("#deals thead th.name").length;
    for (var s = 1; s <= seats; s++) {
      var td = document.createElement("td");
      td.className = "num";
      var span = document.createElement("span");
      span.className = "parts";
      span.textContent = seatParts(this.sources, it.fields, s).join(" ");
      td.appendChild(span);
      tr.appendChild(td);
    }
    var cell = document.createElement("td");
    cell.className = "status";
    cell.setAttribute("data-status", st);
    if (st === window.TableQueue.WAITING) {
      var b = window.TableQueue.blocker(items, it);
      cell.textContent = this.t("waiting").replace("%s", b ? String(b.deal) : "");
    } else {
      cell.textContent = this.t(st === "queued" ? "saved" : st);
      cell.setAttribute("data-status", st === "queued" ? "saved" : st);
    }
    if (it.kind === "correct") {
      var label = document.createElement("span");
      label.className = "corrected";
      label.textContent = this.t("correction");
      cell.appendChild(document.createTextNode(" "));
      cell.appendChild(label);
    }
    tr.appendChild(cell);
    return tr;
  };

  // renderDecisions lists, at the top of the page, every entry that needs
  // the table: a conflict with both versions side by side, a refused entry
  // with the server's words.
  TablePage.prototype.renderDecisions = function (items) {
    var self = this;
    var Q = window.TableQueue;
    var box = document.getElementById("decide");
    var list = items.filter(function (it) { var s = Q.shownState(items, it); return s === Q.CONFLICT || s === Q.REFUSED; });
    box.hidden = list.length === 0;
    var ul = document.getElementById("decide-list");
    // The panel is drawn again only when what it shows changed: drawn
    // again while a player typed a reason or tapped a button, it lost
    // the keys typed before the focus came back and the tap whose press
    // and release met two different buttons.
    var shown = JSON.stringify(list.map(function (it) {
      return [it.key, it.state, it.deal, it.game === self.game, it.kind, !!self.form, !!self.fixForm, it.fields, it.answer && it.answer.stored, self.messagesOf(it)];
    }));
    if (shown === this.decisionsShown) { return; }
    this.decisionsShown = shown;
    // A reason being typed keeps its text and its focus.
    var typed = {}, focused = document.activeElement && document.activeElement.getAttribute("data-key");
    ul.querySelectorAll(".decision-reason").forEach(function (el) { typed[el.getAttribute("data-key")] = el.value; });
    ul.textContent = "";
    list.forEach(function (it) {
      var li = document.createElement("li");
      li.className = "decision";
      li.setAttribute("data-deal", it.deal);
      li.setAttribute("data-state", it.state);
      var h = document.createElement("p");
      h.className = "decision-what";
      var words = self.messagesOf(it).map(function (m) { return m.text; }).join(" ");
      if (it.state === Q.CONFLICT) {
        h.textContent = self.t("conflict").replace("%s", String(it.deal));
        li.appendChild(h);
        li.appendChild(self.versions(it));
        var reason = document.createElement("input");
        reason.type = "text";
        reason.className = "decision-reason";
        reason.setAttribute("data-key", it.key);
        reason.value = typed[it.key] || "";
        reason.setAttribute("aria-label", self.t("reasonmine"));
        reason.placeholder = self.t("reasonmine");
        li.appendChild(self.button(self.t("keepstored"), "keep-stored", function () { self.q.keep(it.key); }));
        li.appendChild(reason);
        if (focused === it.key) { setTimeout(function () { reason.focus(); }, 0); }
        li.appendChild(self.button(self.t("usemine"), "use-mine", function () {
          if (reason.value.trim() === "") { reason.setAttribute("aria-invalid", "true"); reason.focus(); return; }
          self.q.correct(it.key, reason.value.trim(), newKey());
        }));
      } else {
        h.textContent = self.t("refusedhead").replace("%s", String(it.deal)) + " " + words;
        li.appendChild(h);
        var mine = document.createElement("p");
        mine.className = "decision-mine";
        mine.textContent = self.describe(it.fields);
        li.appendChild(mine);
        if (it.game === self.game && (it.kind === "deal" ? !!self.form : !!self.fixForm)) {
          li.appendChild(self.button(self.t("fix"), "fix", function () { self.fix(it.key); }));
        }
      }
      li.appendChild(self.button(self.t("discard"), "discard secondary", function () {
        var ask = self.t("discardask").replace("%s", String(it.deal)).replace("%s", self.describe(it.fields));
        if (window.confirm(ask)) { self.q.discard(it.key); }
      }));
      ul.appendChild(li);
    });
  };

  TablePage.prototype.button = function (text, cls, f) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = cls;
    b.textContent = text;
    b.addEventListener("click", f);
    return b;
  };

  // versions shows a conflict's two versions side by side.
  TablePage.prototype.versions = function (it) {
    var dl = document.createElement("dl");
    dl.className = "versions";
    [["thisphone", it.fields, "mine"], ["storedver", it.answer && it.answer.stored, "stored"]].forEach(function (v) {
      var dt = document.createElement("dt");
      dt.textContent = this.t(v[0]);
      var dd = document.createElement("dd");
      dd.className = "version-" + v[2];
      dd.textContent = v[1] ? this.describe(v[1]) : this.t("storedunknown");
      dl.appendChild(dt);
      dl.appendChild(dd);
    }, this);
    return dl;
  };

  // resumeCorrection shows the correction form as the phone has it: hidden
  // behind a note while its correction waits to be sent.
  TablePage.prototype.resumeCorrection = function (items) {
    var self = this;
    var it = items.filter(function (x) {
      return x.kind === "correct" && x.game === self.game && x.deal === parseInt(self.fixForm.getAttribute("data-deal"), 10);
    }).pop();
    var waiting = !!it && it.state !== "refused";
    this.fixForm.hidden = waiting;
    document.getElementById("correct-queued").hidden = !waiting;
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
    var el = document.getElementById("deal-number");
    if (el.value === String(n) && this.numbered) { return; }
    this.numbered = true;
    el.value = n;
    document.getElementById("entry-heading").textContent = this.heading(n);
    var vul = document.getElementById("entry-vul");
    if (vul) { vul.hidden = String(n) !== vul.getAttribute("data-deal"); }
  };

  // heading names deal n and its dealer: the players still at the table
  // deal in turn from the server's next deal on.
  TablePage.prototype.heading = function (n) {
    var live = document.getElementById("live");
    var dealers = (live.getAttribute("data-dealers") || "").split("|");
    var next = parseInt(live.getAttribute("data-next"), 10);
    // A bridge match's deals passed out take no number of their own.
    var skipped = parseInt(live.getAttribute("data-skipped") || "0", 10);
    var k = ((n - next) % dealers.length + dealers.length) % dealers.length;
    return this.t("entry").replace("0", String(n - skipped)).replace("%s", dealers[k] || "");
  };

  // fix puts a refused entry back into its form with the server's words
  // beside its fields; saving it sends it again under the same number.
  TablePage.prototype.fix = function (key) {
    var it = this.q.items().filter(function (x) { return x.key === key; })[0];
    var form = it && it.kind === "correct" ? this.fixForm : this.form;
    if (!it || !form) { return; }
    if (form === this.form) { this.clearForm(); }
    form.hidden = false;
    Object.keys(it.fields).forEach(function (name) {
      var el = form.elements.namedItem(name);
      if (el) { el.value = it.fields[name]; }
    });
    if (it.kind === "correct") { form.elements.namedItem("reason").value = it.reason || ""; }
    if (it.fields.record) { form.querySelector("details.paste").open = true; }
    form.setAttribute("data-fixing", key);
    if (form === this.form) {
      this.numbered = false;
      this.number(it.deal);
    }
    this.showMessages(form, this.messagesOf(it));
    var first = form.querySelector("[aria-invalid=true]") || form.querySelector("input,select");
    if (first) { first.focus(); }
  };

  // messagesOf is the server's words about a refused entry in the
  // language the page is read in now (the player may have changed it
  // since), else as they were answered.
  TablePage.prototype.messagesOf = function (it) {
    var a = it.answer || {};
    var lang = document.documentElement.lang;
    return (a.words && a.words[lang]) || a.messages || [];
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

  // post sends one entry: the answer, or a rejected promise when the
  // network failed.
  TablePage.prototype.post = function (it) {
    var self = this;
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
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Accept": "application/json", "Idempotency-Key": it.key,
        "Content-Type": "application/x-www-form-urlencoded" },
      body: data.toString()
    }).then(function (r) {
      return r.json().catch(function () { return { retry: true }; }).then(function (ans) {
        ans.status = r.status;
        ans.ok = r.ok && ans.ok;
        if (r.status === 401) { self.gone(); }
        return ans;
      });
    });
  };

  TablePage.prototype.network = function (up) {
    var net = document.getElementById("net");
    document.body.setAttribute("data-network", up ? "online" : "offline");
    if (this.noticed) { return; }
    net.hidden = up;
    if (!up) { net.textContent = this.t("offline"); }
  };

  TablePage.prototype.notice = function (text) {
    var net = document.getElementById("net");
    this.noticed = true;
    net.hidden = false;
    net.textContent = text;
  };

  // gone tells the table that its session ended: a new round was drawn
  // (the page says so, and how to reach the new table), or the phone
  // must enter the code again.
  TablePage.prototype.gone = function () {
    var round = parseInt(this.app.dataset.round, 10);
    if (this.drawn) {
      this.notice(this.t("newround").replace("%s", String(this.drawn)).replace("%s", String(round)));
      document.body.setAttribute("data-new-round", String(this.drawn));
    } else {
      this.notice(this.t("relogin"));
    }
  };

  // gameURL is this page's address naming the game it shows: the page
  // without a game shows the first game not over, which changes when the
  // game shown ends.
  TablePage.prototype.gameURL = function () {
    var u = new URL(window.location.href);
    u.hash = "";
    u.search = ""; // not a correction's ?correct=n: the game as it is
    u.searchParams.set("game", String(this.game));
    return u.toString();
  };

  TablePage.prototype.tableURL = function () {
    return "/t/" + encodeURIComponent(this.app.dataset.tid) + "/table";
  };

  // read reads the page again for its live part: the deals the server
  // holds (from this phone or another at the table).
  TablePage.prototype.read = function () {
    var self = this;
    return fetch(this.gameURL(), { credentials: "same-origin", headers: { "X-Revisor-Refresh": "1" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) { return null; }
        var doc = new DOMParser().parseFromString(html, "text/html");
        var app = doc.getElementById("table-app");
        // The code form says the latest round too: a session ended by a
        // new round is told apart from a lost cookie even when the
        // stream's "rounds" event was missed (a resync names no round).
        var said = app || doc.getElementById("table-login");
        var latest = said ? parseInt(said.dataset.latest || "0", 10) : 0;
        if (latest > parseInt(self.app.dataset.round, 10)) { self.drawn = latest; }
        if (!app || self.drawn || app.dataset.round !== self.app.dataset.round || app.dataset.table !== self.app.dataset.table) {
          // The code form, or another table: this phone's session is over
          // (a new round drawn, or the cookie gone).
          self.q.stopped = true;
          self.gone();
          return null;
        }
        return self.liveGame(doc);
      });
  };

  // took shows a read of the page's live part.
  TablePage.prototype.took = function (game) {
    var fresh = game.doc.getElementById("live");
    var here = document.getElementById("live");
    if (!fresh || !here) { return; }
    here.replaceWith(document.importNode(fresh, true));
    if (game.over && this.form) {
      // The game ended (on this phone or another): show it as it is now,
      // its confirm buttons in view, not the next game's form.
      // A replace that changes only the fragment would not load the page
      // again: name the address, then load it.
      window.history.scrollRestoration = "manual";
      window.history.replaceState(null, "", this.gameURL() + "#confirm");
      window.location.reload();
      return;
    }
    this.numbered = false;
    document.body.setAttribute("data-updated", String(Date.now()));
  };

  // listen follows the tournament's event stream (RevisorLive.follow,
  // which opens it again should the network drop it): the page reads
  // itself again only for a change of its own table or round, and the
  // clock only when the round changes (its clock lives there); no polling.
  TablePage.prototype.listen = function () {
    var url = this.app.getAttribute("data-events");
    if (!url || !window.EventSource || !window.RevisorLive) { return; }
    var round = parseInt(this.app.dataset.round, 10), table = parseInt(this.app.dataset.table, 10);
    var on = this.handlers(round, table);
    var stream = window.RevisorLive.follow(url, on);
    // Closed when the page is left, opened again when the browser brings
    // the page back (its open reads the game again): see app.js's listen.
    window.addEventListener("pagehide", function () { if (stream) { stream.close(); stream = null; } });
    window.addEventListener("pageshow", function (ev) {
      if (ev.persisted && !stream) { stream = window.RevisorLive.follow(url, on); }
    });
  };

  // handlers are what the page does with the events of its stream.
  TablePage.prototype.handlers = function (round, table) {
    var self = this;
    var timer = null;
    function data(ev) {
      try { return JSON.parse(ev.data || "{}") || {}; } catch (x) { return {}; }
    }
    return {
      change: function (ev) {
        var e = data(ev);
        if (e.kind === "round_clocks") {
          if (e.round === round) { self.loadClock(e.v); }
          return;
        }
        if (e.kind === "queue_reports") { return; } // the room view's, not the game's
        var mine = (e.round === round && (!e.table || e.table === table)) || !e.round;
        if (e.kind === "rounds" && e.round > round) { self.drawn = e.round; }
        if (!mine && !self.drawn) { return; }
        if (timer) { clearTimeout(timer); }
        timer = setTimeout(function () {
          self.q.refresh(self.game);
          if (e.kind === "rounds" || e.kind === "resync") { self.loadClock(e.v); }
        }, 150);
      },
      clock: function (ev) { self.loadClock(data(ev).v); },
      // A stream's first event: the version of the clock's latest change
      // the server knows of; the clock changed while the stream was closed
      // (opened after the page was made, or again after the network
      // dropped), or its read then failed, when it is later than the one
      // the page read.
      hello: function (ev) {
        var c = Number(data(ev).c) || 0;
        if (c > self.clockAt) { self.loadClock(c); }
      },
      open: function () {
        document.body.setAttribute("data-live", "on");
        self.q.reconnect(self.game);
      }
    };
  };

  // --- the round clock, in the server's time ---

  // loadClock reads the round clock, asked by a change of version v (0 or
  // none: no change known); a read that failed is tried again after
  // CLOCK_RETRY_MS (the network may be down with the stream still open,
  // which then says nothing more of the change).
  TablePage.prototype.loadClock = function (v) {
    var self = this;
    var url = this.app.getAttribute("data-clock-src");
    v = Number(v) || 0;
    var retry = function () {
      if (self.clockRetry) { return; }
      self.clockRetry = setTimeout(function () { self.clockRetry = null; self.loadClock(v); }, CLOCK_RETRY_MS);
    };
    fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (c) {
        if (!c) { retry(); return; }
        self.clockAt = Math.max(self.clockAt, v);
        // remaining_seconds is the server's: the phone's own clock may be wrong.
        self.clock = { state: c.state, remaining: c.remaining_seconds || 0, at: Date.now() };
        self.showClock();
      })
      .catch(retry);
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
  // page for a reload without network (scope: this table page only). A
  // page loaded before its worker ran was not kept by it: once the worker
  // takes it over, the page reads itself again through it, so that a
  // reload without network finds it even before anything changes at the
  // table.
  function keepOffline(page) {
    if (!navigator.serviceWorker) { return; }
    var path = window.location.pathname;
    if (!navigator.serviceWorker.controller) {
      var taken = function () {
        navigator.serviceWorker.removeEventListener("controllerchange", taken);
        page.q.refresh(page.game);
      };
      navigator.serviceWorker.addEventListener("controllerchange", taken);
    }
    navigator.serviceWorker.register("/static/sw.js", { scope: path }).catch(function () {});
  }

  // heldQueues says on the code form what this phone still holds of the
  // tournament's tables (entries kept when somebody left a table with a
  // queue): nothing waits on a phone without being shown.
  function heldQueues() {
    var el = document.getElementById("held");
    if (!el) { return; }
    var prefix = "revisor.table." + el.getAttribute("data-tid") + ".";
    var lines = [];
    for (var i = 0; i < window.localStorage.length; i++) {
      var k = window.localStorage.key(i);
      if (!k || k.indexOf(prefix) !== 0) { continue; }
      var at = k.slice(prefix.length).split(".");
      var n = 0;
      try { n = JSON.parse(window.localStorage.getItem(k) || "[]").length; } catch (e) { n = 0; }
      if (at.length !== 2 || !n) { continue; }
      lines.push(n === 1 ? el.getAttribute("data-t-held-one").replace("%s", at[1]).replace("%s", at[0]) :
        el.getAttribute("data-t-held").replace("%s", String(n)).replace("%s", at[1]).replace("%s", at[0]));
    }
    if (!lines.length) { return; }
    el.textContent = lines.join(" ");
    el.hidden = false;
  }

  document.addEventListener("DOMContentLoaded", function () {
    heldQueues();
    loginFromFragment();
    var app = document.getElementById("table-app");
    if (app) {
      var page = new TablePage(app);
      keepOffline(page);
      page.start();
    }
  });
  // A game that just ended is shown at its confirm buttons: after the
  // reload (TablePage.refresh), once laid out, not where it was scrolled.
  window.addEventListener("load", function () {
    var confirm = window.location.hash === "#confirm" && document.getElementById("confirm");
    if (confirm) { confirm.scrollIntoView({ block: "start" }); }
  });
}());
