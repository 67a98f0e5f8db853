// The table page's queue: the phone's side of the table protocol
// (docs/table-protocol.md), without the page. It keeps every entry typed on
// the phone until the server has it or the person holding the phone has
// decided, sends the entries one at a time in the order they were typed,
// and says, for every entry, what it is waiting for. The page (table.js)
// gives it a storage (localStorage), a transport (fetch) and a view; the
// randomized test (web/jstest) gives it a model of the server and of a
// night at the table.
(function (root) {
  "use strict";

  // States of an entry. "waiting" is never stored: an entry waits while
  // the entry it was typed behind needs a decision.
  var QUEUED = "queued", SENDING = "sending", CONFLICT = "conflict", REFUSED = "refused", WAITING = "waiting";

  // norm is a form's values as the server compares them: without spaces,
  // "c15" and "C15" alike, "03" and "+3" as "3", empty fields left out.
  function norm(fields) {
    var out = {};
    Object.keys(fields || {}).forEach(function (k) {
      var v = String(fields[k]).replace(/\s+/g, "").replace(/\u2212/g, "-").toUpperCase()
        .replace(/(^|[^0-9])\+/g, "$1").replace(/(^|[^0-9])0+(\d)/g, "$1$2");
      if (v !== "") { out[k] = v; }
    });
    return out;
  }

  // same reports whether two entries' values are the same deal.
  function same(a, b) {
    var x = norm(a), y = norm(b);
    var kx = Object.keys(x).sort(), ky = Object.keys(y).sort();
    if (kx.length !== ky.length) { return false; }
    for (var i = 0; i < kx.length; i++) {
      if (kx[i] !== ky[i] || x[kx[i]] !== y[ky[i]]) { return false; }
    }
    return true;
  }

  function find(items, key) {
    for (var i = 0; i < items.length; i++) {
      if (items[i].key === key) { return items[i]; }
    }
    return null;
  }

  // blocker is the entry needing a decision that entry it was typed
  // behind, directly or through other entries, or null.
  function blocker(items, it) {
    var seen = {};
    var cur = it;
    while (cur && cur.base && cur.base.after && !seen[cur.key]) {
      seen[cur.key] = true;
      var prev = find(items, cur.base.after);
      if (!prev) { return null; }
      if (prev.state === CONFLICT || prev.state === REFUSED) { return prev; }
      cur = prev;
    }
    return null;
  }

  // shownState is the state the page shows for an entry.
  function shownState(items, it) {
    if ((it.state === QUEUED || it.state === SENDING) && blocker(items, it)) { return WAITING; }
    return it.state;
  }

  // counts tells how many entries wait to be sent, need a decision
  // (conflicts) or were refused: what a phone reports to the room view.
  function counts(items) {
    var c = { pending: 0, conflicts: 0, refused: 0, waiting: 0 };
    items.forEach(function (it) {
      var s = shownState(items, it);
      if (s === CONFLICT) { c.conflicts++; } else if (s === REFUSED) { c.refused++; } else if (s === WAITING) { c.waiting++; } else { c.pending++; }
    });
    return c;
  }

  // Client is one phone's queue for one table. storage has load() and
  // save(items); transport has send(entry) → Promise of an answer
  // {status, ok, code, messages, stored} (rejected when the network
  // failed) and read(game) → Promise of the game as the server holds it
  // {deals: [fields…], over}; onChange is called after every change.
  function Client(storage, transport, onChange) {
    this.storage = storage;
    this.transport = transport;
    this.onChange = onChange || function () {};
    this.games = {};    // game → {deals: [fields], over}: the server's game as last read
    this.acked = {};    // game → the highest deal number the server acknowledged
    this.reads = 0;     // reads started, to drop an older read answered after a newer
    this.applied = 0;
    this.busy = false;
    this.stopped = false; // the session ended (401): nothing is sent until a new login
    this.newKey = null;
    // A reload: an entry being sent when the page went may or may not
    // have reached the server; sending it again is a harmless repeat.
    var items = this.load();
    items.forEach(function (it) { if (it.state === SENDING) { it.state = QUEUED; } });
    this.save(items);
  }

  Client.prototype.load = function () {
    var items = this.storage.load();
    return Array.isArray(items) ? items : [];
  };
  Client.prototype.save = function (items) { this.storage.save(items); };
  Client.prototype.items = function () { return this.load(); };

  // stored is how many deals of game g the phone knows the server holds.
  Client.prototype.stored = function (g) {
    var gm = this.games[g];
    return Math.max(gm ? gm.deals.length : 0, this.acked[g] || 0);
  };

  // form is the number and base of a new deal typed for game g now: the
  // next after the deals the server holds and those queued on this
  // phone. The page calls it when a form is empty and keeps the answer
  // while anybody types in it.
  Client.prototype.form = function (g) {
    var n = this.stored(g), after = "";
    this.load().forEach(function (it) {
      // A conflict's number is stored already (with other content): the
      // next deal follows the server's game, not the conflict.
      if (it.kind === "deal" && it.game === g && it.deal > n && it.state !== CONFLICT) { n = it.deal; after = it.key; }
    });
    return { deal: n + 1, base: { deals: this.stored(g), after: after } };
  };

  // add keeps an entry typed on this phone: {key, kind, game, deal, base,
  // fields, reason}. Its number and base are the form's, as they were when
  // the form was opened.
  Client.prototype.add = function (e) {
    var items = this.load();
    items.push({ key: e.key, kind: e.kind || "deal", game: e.game, deal: e.deal,
      base: e.base || { deals: this.stored(e.game), after: "" }, fields: e.fields, reason: e.reason || "",
      state: QUEUED, at: e.at || 0 });
    this.save(items);
    this.onChange();
    this.pump();
  };

  // learn takes the game as the server holds it (a read of the page's
  // live part): entries already stored identically are dropped, new deals
  // whose number holds other content need a decision.
  Client.prototype.learn = function (g, game) {
    this.games[g] = { deals: game.deals.slice(), over: !!game.over };
    var items = this.load().filter(function (it) {
      if (it.kind !== "deal" || it.game !== g || it.state !== QUEUED) { return true; }
      var st = game.deals[it.deal - 1];
      return !(st && same(st, it.fields));
    });
    items.forEach(function (it) {
      if (it.kind !== "deal" || it.game !== g || it.state !== QUEUED) { return; }
      var st = game.deals[it.deal - 1];
      // A pasted record is compared by the server only (its JSON may be
      // written another way with the same content).
      if (st && !st.record && !it.fields.record) {
        it.state = CONFLICT;
        it.answer = { code: "deal_exists", messages: [], stored: st };
      }
    });
    this.save(items);
    this.onChange();
  };

  // refresh reads game g again (on a reconnect, or when the event stream
  // says the table's game changed). An older read answered after a newer
  // one is dropped.
  Client.prototype.refresh = function (g) {
    var self = this;
    var n = ++this.reads;
    return this.transport.read(g).then(function (game) {
      if (!game || n < self.applied) { return; }
      self.applied = n;
      if (self.onRead) { self.onRead(g, game); }
      self.learn(g, game);
      self.pump();
    }, function () {});
  };

  // next is the first entry to send: queued, and not typed behind an
  // entry that needs a decision.
  Client.prototype.next = function () {
    var items = this.load();
    for (var i = 0; i < items.length; i++) {
      if (items[i].state === QUEUED && !blocker(items, items[i])) { return items[i]; }
    }
    return null;
  };

  // pump sends the queued entries one at a time until none is left, the
  // network fails (sent again on retry()) or the session ended.
  Client.prototype.pump = function () {
    var self = this;
    if (this.busy || this.stopped) { return; }
    var it = this.next();
    if (!it) { return; }
    this.busy = true;
    this.mark(it.key, function (x) { x.state = SENDING; });
    this.transport.send(it).then(function (ans) {
      self.busy = false;
      self.answered(it, ans);
    }, function () {
      self.busy = false;
      self.offline = true;
      self.mark(it.key, function (x) { x.state = QUEUED; });
    });
  };

  // retry sends again after a network failure (the page calls it on a
  // timer, when the network comes back and when the event stream opens).
  Client.prototype.retry = function () {
    var was = this.offline;
    this.offline = false;
    this.stopped = false;
    if (was) { this.onChange(); }
    this.pump();
  };

  // reconnect is what the phone does when the network or the event
  // stream comes back, and after a reload: it first reads the game (what
  // is stored identically is dropped, conflicts need a decision), then
  // sends the rest.
  Client.prototype.reconnect = function (g) {
    var self = this;
    this.offline = false;
    this.stopped = false;
    return this.refresh(g).then(function () { self.pump(); });
  };

  // answered applies the server's answer to entry it.
  Client.prototype.answered = function (it, ans) {
    if (ans.ok) {
      if (it.kind === "deal") { this.acked[it.game] = Math.max(this.acked[it.game] || 0, it.deal); }
      var gm = this.games[it.game];
      if (gm && gm.deals.length >= it.deal - 1) { gm.deals[it.deal - 1] = norm(it.fields); }
      this.drop(it.key);
      if (this.onStored) { this.onStored(it, ans); }
      this.pump();
      return;
    }
    if (ans.status === 401) {
      this.mark(it.key, function (x) { x.state = QUEUED; });
      this.stopped = true;
      return;
    }
    if (ans.retry || !ans.status || ans.status >= 500 || ans.status === 429) {
      this.offline = true;
      this.mark(it.key, function (x) { x.state = QUEUED; });
      return;
    }
    var state = ans.code === "deal_exists" ? CONFLICT : REFUSED;
    if (state === CONFLICT) { this.acked[it.game] = Math.max(this.acked[it.game] || 0, it.deal); }
    this.mark(it.key, function (x) {
      x.state = state;
      x.answer = { code: ans.code || "", messages: ans.messages || [], words: ans.words || null, stored: ans.stored || null };
    });
    this.pump();
  };

  Client.prototype.mark = function (key, f) {
    var items = this.load();
    var it = find(items, key);
    if (it) { f(it); }
    this.save(items);
    this.onChange();
  };

  Client.prototype.drop = function (key) {
    var items = this.load();
    var gone = find(items, key);
    items = items.filter(function (it) { return it.key !== key; });
    // Entries typed behind the dropped one now follow what it followed.
    items.forEach(function (it) {
      if (gone && it.base && it.base.after === key) { it.base.after = gone.base ? gone.base.after : ""; }
    });
    this.save(items);
    this.onChange();
  };

  // keep decides a conflict for the stored deal: the entry is dropped.
  Client.prototype.keep = function (key) {
    this.drop(key);
    this.pump();
  };

  // correct decides a conflict for this phone's version: the entry
  // becomes a correction of the stored deal, with the table's reason.
  Client.prototype.correct = function (key, reason, newKey) {
    this.mark(key, function (x) {
      x.kind = "correct";
      x.reason = reason;
      x.key = newKey;
      x.state = QUEUED;
      x.answer = null;
    });
    this.rekey(key, newKey);
    this.pump();
  };

  // fix replaces a refused entry's values with the table's new ones,
  // under a new key (the old key's request was answered already).
  Client.prototype.fix = function (key, fields, newKey, reason) {
    this.mark(key, function (x) {
      x.fields = fields;
      x.key = newKey;
      x.state = QUEUED;
      x.answer = null;
      if (reason !== undefined) { x.reason = reason; }
    });
    this.rekey(key, newKey);
    this.pump();
  };

  Client.prototype.rekey = function (key, newKey) {
    var items = this.load();
    items.forEach(function (it) { if (it.base && it.base.after === key) { it.base.after = newKey; } });
    this.save(items);
  };

  // discard drops an entry the table gave up (the page asks first and
  // names what is lost).
  Client.prototype.discard = function (key) {
    this.drop(key);
    this.pump();
  };

  var api = { Client: Client, norm: norm, same: same, blocker: blocker, shownState: shownState, counts: counts,
    QUEUED: QUEUED, SENDING: SENDING, CONFLICT: CONFLICT, REFUSED: REFUSED, WAITING: WAITING };
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.TableQueue = api;
  }
}(this));
