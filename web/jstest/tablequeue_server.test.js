// The table protocol (docs/table-protocol.md) against the real server:
// the phone's queue (web/static/tablequeue.js) sends its entries to the
// table page's endpoints and reads the page's live part, as table.js does,
// over random nights: K phones at a table, each logged in with the table's
// code (its own cookies and form token), random offline periods, answers
// lost after the server acted, reads answered late, reloads, identical and
// conflicting entries, corrections and the table's decisions. At the end
// of each night the invariants are checked against what the server
// stores, and no queue may forget an entry that the server did not take,
// the game does not hold identically, or the table did not decide. Go's
// TestTableProtocolServer starts the server on a test
// database and runs this file with REVISOR_PROTOCOL naming its slots (one
// game of a table a night); without it the file skips. SEED=s runs one
// night, SEEDS=n that many (at most one per slot).
"use strict";

const test = require("node:test");
const assert = require("node:assert");
const fs = require("node:fs");
const Q = require("../static/tablequeue.js");

const cfg = process.env.REVISOR_PROTOCOL ? JSON.parse(fs.readFileSync(process.env.REVISOR_PROTOCOL, "utf8")) : null;

const { rng } = require("./rng.js"); // seeded: a failing night runs again from its seed

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function unescapeHTML(s) {
  return s.replace(/&#34;|&quot;/g, "\"").replace(/&#39;/g, "'").replace(/&#43;/g, "+").replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

// liveGame reads the game from the table page as table.js's liveGame
// does: the stored deals' fields (data-fields) of the first tbody of
// #deals, and whether the game is over.
function liveGame(html) {
  const deals = [];
  const body = /<table class="deals" id="deals">[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(html);
  const numbers = [];
  if (body) {
    for (const m of body[1].matchAll(/<tr data-deal="(\d+)"(?: data-fields="([^"]*)")?>/g)) {
      numbers.push(Number(m[1]));
      deals.push(m[2] ? JSON.parse(unescapeHTML(m[2])) : null);
    }
  }
  return { deals, numbers, over: /<section id="live"[^>]* data-over="true"/.test(html) };
}

// Phone is one phone at the table: its cookies, its form token, its
// localStorage (items) and the page's queue (client), which a reload
// makes again over the same storage.
class Phone {
  constructor(night, name) {
    this.night = night;
    this.name = name;
    this.cookies = {};
    this.items = [];
    this.gen = 0;
    this.offline = false;
    this.loseNext = false;
  }

  async fetch(path, opts) {
    const o = Object.assign({ redirect: "manual" }, opts || {});
    o.headers = Object.assign({}, o.headers, { Cookie: Object.entries(this.cookies).map(([k, v]) => k + "=" + v).join("; ") });
    const r = await fetch(cfg.url + path, o);
    for (const c of r.headers.getSetCookie()) {
      const m = /^([^=]+)=([^;]*)/.exec(c);
      if (m) { this.cookies[m[1]] = m[2]; }
    }
    return r;
  }

  async login() {
    const page = this.night.page;
    const form = await (await this.fetch(page)).text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(form);
    assert.ok(csrf, "the code form has no form token");
    const r = await this.fetch(page + "/login", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ _csrf: csrf[1], code: this.night.slot.code }).toString() });
    assert.strictEqual(r.status, 303, "the table's code was not taken");
    const html = await (await this.fetch(page + "?game=" + this.night.slot.game)).text();
    this.csrf = /name="_csrf" value="([^"]+)"/.exec(html)[1];
    this.open(liveGame(html));
  }

  // open starts the page's queue (a first load or a reload) and learns
  // the game the page showed.
  open(game) {
    const gen = ++this.gen;
    const self = this;
    const storage = {
      load: () => JSON.parse(JSON.stringify(self.items)),
      // A page that was reloaded writes nothing more.
      save: (items) => {
        if (gen !== self.gen) { return; }
        self.vanished(items);
        self.items = JSON.parse(JSON.stringify(items));
      }
    };
    const client = new Q.Client(storage, { send: (it) => this.send(it, gen), read: () => this.read(gen) });
    // learn may drop what the game holds identically: note the game it learns.
    const learn = client.learn;
    client.learn = function (g, gm) {
      self.learning = gm;
      try { return learn.call(this, g, gm); } finally { self.learning = null; }
    };
    this.client = client;
    if (game) { this.client.learn(this.night.slot.game, game); }
  }

  // vanished checks every entry the queue is about to forget (5.): the
  // server acknowledged it, the table decided it, or the game being
  // learnt holds it identically under its number. Anything else is an
  // entry lost without a word.
  vanished(items) {
    const left = new Set(items.map((it) => it.key));
    for (const it of this.items) {
      if (left.has(it.key) || this.night.acked.has(it.key) || this.night.decided.has(it.key)) { continue; }
      const held = this.learning && this.learning.deals[it.deal - 1];
      if (it.kind === "deal" && held && Q.same(held, it.fields)) { continue; }
      this.night.lost.push(`${this.name} forgot deal ${it.deal} (${it.kind}, ${it.state}) ${JSON.stringify(it.fields)}`);
    }
  }

  async send(it, gen) {
    if (this.offline) { throw new Error("offline"); }
    const data = new URLSearchParams({ _csrf: this.csrf });
    let path = this.night.page + "/games/" + it.game + "/deals";
    if (it.kind === "correct") { path += "/" + it.deal; data.set("reason", it.reason); } else { data.set("deal", String(it.deal)); }
    for (const [k, v] of Object.entries(it.fields)) { data.set(k, v); }
    const r = await this.fetch(path, { method: "POST", body: data.toString(),
      headers: { "Accept": "application/json", "Idempotency-Key": it.key, "Content-Type": "application/x-www-form-urlencoded" } });
    let ans;
    try { ans = await r.json(); } catch (e) { ans = { retry: true }; }
    ans.status = r.status;
    ans.ok = r.ok && ans.ok;
    if (ans.ok) { this.night.acked.add(it.key); this.night.changed(this); }
    if (this.loseNext || gen !== this.gen) { this.loseNext = false; throw new Error("the answer was lost"); }
    return ans;
  }

  async read(gen) {
    if (this.offline) { throw new Error("offline"); }
    const r = await this.fetch(this.night.page + "?game=" + this.night.slot.game, { headers: { "X-Revisor-Refresh": "1" } });
    if (!r.ok) { return null; }
    const game = liveGame(await r.text());
    // A late answer: another read or answer may arrive before it.
    if (this.night.chance(0.3)) { await sleep(this.night.int(40)); }
    if (gen !== this.gen) { throw new Error("the page was reloaded"); }
    return game;
  }

  // idle is true when nothing of the queue is on its way or can go.
  idle() { return !this.client.busy && this.client.next() === null; }
}

// Night is one seed's night at one game of one table.
class Night {
  constructor(seed, slot) {
    this.seed = seed;
    this.slot = slot;
    this.r = rng(seed);
    this.page = "/t/" + encodeURIComponent(slot.tid) + "/table";
    this.entered = new Map(); // deal number → the contents a phone entered for it (new or correction)
    this.truth = new Map(); // deal number → what was played, as most phones type it
    this.keys = 0;
    this.acked = new Set(); // the keys the server answered ok
    this.decided = new Set(); // the keys the table decided (kept, corrected, fixed, discarded)
    this.lost = []; // entries a queue forgot without cause
    this.log = [];
  }
  int(n) { return Math.floor(this.r() * n); }
  chance(p) { return this.r() < p; }
  key() { return "n" + this.seed + "-" + (++this.keys) + "-" + Math.floor(Math.random() * 1e9); }

  // content is what a phone types for deal n: mostly the deal as played,
  // sometimes other points, now and then a deal no rule admits (two last
  // tricks). Last tricks go round the table so that no game ends early.
  content(n) {
    const last = "s" + ((n - 1) % 4 + 1) + "_last";
    const deal = (seat, v) => ({ ["s" + seat + "_hand1"]: String(v), [last]: "5" });
    if (!this.truth.has(n)) { this.truth.set(n, deal(this.int(4) + 1, this.int(2) + 1)); }
    const x = this.r();
    if (x < 0.03) { return { ["s" + (n % 4 + 1) + "_last"]: "5", [last]: "5" }; }
    if (x < 0.3) { return deal(this.int(4) + 1, this.int(3) + 1); }
    if (x < 0.4) { return Object.fromEntries(Object.entries(this.truth.get(n)).map(([k, v]) => [k, " 0" + v + " "])); }
    return Object.assign({}, this.truth.get(n));
  }

  note(n, fields) {
    if (!this.entered.has(n)) { this.entered.set(n, []); }
    this.entered.get(n).push(fields);
  }

  // changed: the server stored something; the other phones hear it on
  // their event stream and read the game, each a little later.
  changed(from) {
    for (const p of this.phones) {
      if (p !== from && !p.offline && this.chance(0.8)) {
        setTimeout(() => { if (!p.offline) { p.client.refresh(this.slot.game); } }, this.int(30));
      }
    }
  }

  async step(p) {
    const g = this.slot.game, c = p.client, x = this.r();
    const items = c.items();
    const conflict = items.find((it) => it.state === Q.CONFLICT);
    const refused = items.find((it) => it.state === Q.REFUSED);
    if ((conflict || refused) && this.chance(0.3)) {
      this.decide(p, conflict || refused);
    } else if (x < 0.45) {
      const f = c.form(g);
      const fields = this.content(f.deal);
      this.note(f.deal, fields);
      this.log.push(p.name + " enters deal " + f.deal + " " + JSON.stringify(fields) + (p.offline ? " offline" : ""));
      c.add({ key: this.key(), kind: "deal", game: g, deal: f.deal, base: f.base, fields });
    } else if (x < 0.5) {
      p.offline = !p.offline;
      this.log.push(p.name + (p.offline ? " goes offline" : " comes back"));
      if (!p.offline) { c.reconnect(g); }
    } else if (x < 0.58) {
      if (!p.offline) { c.refresh(g); }
    } else if (x < 0.63) {
      this.log.push(p.name + " reloads");
      p.open(null);
      if (!p.offline) { p.client.reconnect(g); }
    } else if (x < 0.78) {
      const n = c.stored(g);
      if (n > 0) {
        const d = this.int(n) + 1;
        const fields = this.content(d);
        this.note(d, fields);
        this.log.push(p.name + " corrects deal " + d);
        c.add({ key: this.key(), kind: "correct", game: g, deal: d, fields, reason: "a typo" });
      }
    } else if (x < 0.88) {
      p.loseNext = true;
    } else if (!p.offline) {
      c.retry();
    }
  }

  // decide is the table's decision on an entry that needs one: keep the
  // stored deal or correct it to this phone's; fix or discard a refusal.
  decide(p, it) {
    const c = p.client;
    this.decided.add(it.key);
    if (it.state === Q.CONFLICT) {
      if (this.chance(0.5)) {
        this.log.push(p.name + " keeps the stored deal " + it.deal);
        c.keep(it.key);
      } else {
        this.log.push(p.name + " corrects deal " + it.deal + " to its own");
        c.correct(it.key, "the table agreed", this.key());
      }
    } else if (this.chance(0.5) || it.kind !== "deal") {
      this.log.push(p.name + " discards refused deal " + it.deal);
      c.discard(it.key);
    } else {
      const fields = Object.assign({}, this.truth.get(it.deal));
      this.note(it.deal, fields);
      this.log.push(p.name + " fixes refused deal " + it.deal);
      c.fix(it.key, fields, this.key());
    }
  }

  // settle brings every phone online and waits until no queue has
  // anything on its way or to send.
  async settle(what) {
    for (const p of this.phones) { p.offline = false; p.loseNext = false; p.client.reconnect(this.slot.game); }
    const deadline = Date.now() + 20000;
    let calm = 0;
    while (calm < 3) {
      await sleep(30);
      calm = this.phones.every((p) => p.idle()) ? calm + 1 : 0;
      this.phones.forEach((p) => p.client.retry());
      if (Date.now() > deadline) {
        assert.fail(what + ": a phone's queue does not settle: " +
          this.phones.map((p) => p.name + " " + JSON.stringify(p.client.items().map((it) => [it.deal, it.kind, it.state]))).join("; "));
      }
    }
  }

  async run() {
    const k = 2 + this.int(2);
    this.phones = [];
    for (let i = 0; i < k; i++) {
      const p = new Phone(this, "phone " + String.fromCharCode(65 + i));
      await p.login();
      this.phones.push(p);
    }
    const steps = 25 + this.int(25);
    for (let i = 0; i < steps; i++) {
      await this.step(this.phones[this.int(k)]);
      await sleep(this.int(6));
    }
    await this.settle("after the night");
    // 3. Nothing is held that is neither sent nor shown: every entry left
    // needs a decision, was refused, or waits behind one that does.
    for (const p of this.phones) {
      const items = p.client.items();
      for (const it of items) {
        const st = Q.shownState(items, it);
        assert.ok(st === Q.CONFLICT || st === Q.REFUSED || st === Q.WAITING,
          `${p.name} holds deal ${it.deal} (${it.kind}) in state ${st} after settling`);
      }
    }
    // The table decides everything, until no phone holds anything.
    for (let round = 0; this.phones.some((p) => p.client.items().length); round++) {
      assert.ok(round < 50, "the decisions do not end");
      for (const p of this.phones) {
        for (const it of p.client.items()) {
          if (it.state === Q.CONFLICT || it.state === Q.REFUSED) { this.decide(p, it); }
        }
      }
      await this.settle("after the decisions");
    }
    for (const p of this.phones) { await p.client.refresh(this.slot.game); }
    const judge = new Phone(this, "judge");
    await judge.login();
    const server = liveGame(await (await judge.fetch(this.page + "?game=" + this.slot.game)).text());
    // 5. No queue forgot an entry without cause.
    assert.deepStrictEqual(this.lost, [], "entries lost without a word");
    // 1. Every deal stored once: deals 1…m, no gap, no double.
    assert.deepStrictEqual(server.numbers, server.deals.map((_, i) => i + 1), "the server's deals are not numbered 1…m");
    // 2. Each stored deal is one a phone entered for that number.
    server.deals.forEach((d, i) => {
      assert.ok((this.entered.get(i + 1) || []).some((f) => Q.same(f, d)),
        `deal ${i + 1} holds ${JSON.stringify(d)}, which no phone entered for deal ${i + 1}`);
    });
    // 4. Every phone's copy is the server's game.
    for (const p of this.phones) {
      const mine = p.client.games[this.slot.game].deals;
      assert.strictEqual(mine.length, server.deals.length, `${p.name} knows ${mine.length} deals, the server holds ${server.deals.length}`);
      mine.forEach((d, i) => assert.ok(Q.same(d, server.deals[i]), `${p.name}'s deal ${i + 1} is ${JSON.stringify(d)}, the server's ${JSON.stringify(server.deals[i])}`));
    }
    return server.deals.length;
  }
}

test("the table protocol against the real server", { skip: !cfg && "needs the server: go test -run TestTableProtocolServer ./web" }, async (t) => {
  const only = process.env.SEED ? [Number(process.env.SEED)] : null;
  const count = Math.min(Number(process.env.SEEDS || 200), cfg.slots.length);
  const seeds = only || Array.from({ length: count }, (_, i) => i + 1);
  let next = 0, deals = 0;
  const failures = [];
  async function worker() {
    while (next < seeds.length) {
      const seed = seeds[next++];
      const night = new Night(seed, cfg.slots[(seed - 1) % cfg.slots.length]);
      try {
        const t0 = Date.now();
        const stored = await night.run();
        deals += stored;
        if (process.env.DEBUG) { console.log("seed " + seed + " " + (Date.now() - t0) + " ms\n  " + night.log.join("\n  ")); }
      } catch (e) {
        failures.push(`seed ${seed} (SEED=${seed} runs it alone): ${e.message}\n  ${night.log.slice(-30).join("\n  ")}`);
      }
    }
  }
  await Promise.all(Array.from({ length: 8 }, worker));
  t.diagnostic(`nights: ${seeds.length}, deals stored: ${deals}`);
  console.log(`nights: ${seeds.length - failures.length} of ${seeds.length} passed, deals stored: ${deals}`);
  assert.deepStrictEqual(failures, [], failures.join("\n"));
});
