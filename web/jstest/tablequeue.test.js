// A randomized test of the table protocol (docs/table-protocol.md): K
// phones at one table, each with its own queue (web/static/tablequeue.js),
// against a model of the server's deal rules (tournament.AppendDealAt:
// the number the phone sends, a repeat, deal_exists with the stored deal,
// deal_out_of_order, a refused deal, Idempotency-Key replay). Random
// offline periods, slow and lost answers, late live refreshes, identical
// and conflicting entries, corrections, reloads and decisions; the
// invariants of the protocol are checked at the end of every night.
// Run: node --test web/jstest/*.test.js (SEEDS=n for more nights, SEED=s for one).
"use strict";

const test = require("node:test");
const assert = require("node:assert");
const Q = require("../static/tablequeue.js");

const { rng } = require("./rng.js"); // seeded: a failing night runs again from its seed

// Sim is a discrete-event night: actions run at whole ticks, in order.
class Sim {
  constructor(r) { this.r = r; this.now = 0; this.q = []; this.seq = 0; }
  at(delay, fn) { this.q.push({ t: this.now + delay, s: this.seq++, fn }); }
  int(n) { return Math.floor(this.r() * n); }
  chance(p) { return this.r() < p; }
  async run(until) {
    while (this.q.length) {
      this.q.sort((a, b) => a.t - b.t || a.s - b.s);
      if (until !== undefined && this.q[0].t > until) { return; }
      const ev = this.q.shift();
      this.now = Math.max(this.now, ev.t);
      ev.fn();
      // Let the promises the action resolved run their callbacks.
      for (let i = 0; i < 8; i++) { await Promise.resolve(); }
    }
  }
}

// Server is the model of the server's rules for one game of a table.
class Server {
  constructor() { this.deals = []; this.idem = new Map(); this.listeners = []; this.history = []; }
  handle(e) {
    if (this.idem.has(e.key)) { return this.idem.get(e.key); }
    const ans = this.decide(e);
    this.idem.set(e.key, ans);
    return ans;
  }
  decide(e) {
    const n = e.deal;
    if (e.kind === "correct") {
      if (n > this.deals.length) { return { status: 409, code: "deal_out_of_order" }; }
      if (e.fields.bad) { return { status: 422, code: "invalid_entry", messages: [{ text: "bad" }] }; }
      this.deals[n - 1] = { fields: e.fields, key: e.key };
      this.history.push({ n, key: e.key, fields: e.fields });
      this.changed();
      return { status: 200, ok: true, deal: n };
    }
    if (n <= this.deals.length) {
      if (Q.same(this.deals[n - 1].fields, e.fields)) { return { status: 200, ok: true, deal: n, repeat: true }; }
      return { status: 409, code: "deal_exists", stored: this.deals[n - 1].fields };
    }
    if (n > this.deals.length + 1) { return { status: 409, code: "deal_out_of_order" }; }
    if (e.fields.bad) { return { status: 422, code: "invalid_entry", messages: [{ text: "bad" }] }; }
    this.deals.push({ fields: e.fields, key: e.key });
    this.history.push({ n, key: e.key, fields: e.fields });
    this.changed();
    return { status: 200, ok: true, deal: n };
  }
  changed() { this.listeners.forEach((f) => f()); }
  game() { return { deals: this.deals.map((d) => Object.assign({}, d.fields)), over: false }; }
}

// Phone is one phone at the table: its storage outlives the page (a
// reload makes a new Client over it); its network comes and goes.
class Phone {
  constructor(sim, server, id, night) {
    this.sim = sim; this.server = server; this.id = id; this.night = night;
    this.online = true; this.typing = false; this.stored = "[]"; this.gen = 0; this.keys = 0;
    this.entered = night.entered;
    this.open();
    server.listeners.push(() => {
      // The event stream: a change of the table's game, heard late.
      if (this.online) { const c = this.client; sim.at(sim.int(4), () => { if (c === this.client && this.online) { c.refresh(1); } }); }
    });
  }
  key() { return "p" + this.id + "-" + (this.keys++) + "-" + this.gen; }
  open() {
    const gen = ++this.gen;
    const storage = { load: () => JSON.parse(this.stored), save: (items) => { this.stored = JSON.stringify(items); } };
    const alive = () => gen === this.gen;
    const sim = this.sim;
    const transport = {
      send: (e) => new Promise((resolve, reject) => {
        if (!this.online) { sim.at(1, () => { if (alive()) { reject(new Error("offline")); } }); return; }
        const copy = JSON.parse(JSON.stringify(e));
        sim.at(sim.int(3), () => {
          if (!this.online) { if (alive()) { reject(new Error("offline")); } return; }
          const ans = this.server.handle(copy);
          sim.at(sim.int(4), () => {
            // The answer is lost when the phone went offline meanwhile,
            // and nobody hears it when the page was reloaded.
            if (!alive()) { return; }
            if (!this.online || sim.chance(0.05)) { reject(new Error("lost")); return; }
            resolve(JSON.parse(JSON.stringify(ans)));
          });
        });
      }),
      read: () => new Promise((resolve, reject) => {
        if (!this.online) { sim.at(1, () => { if (alive()) { reject(new Error("offline")); } }); return; }
        sim.at(sim.int(2), () => {
          const g = this.server.game();
          // Late refreshes: an answer can arrive after newer ones.
          sim.at(sim.int(6), () => { if (alive()) { if (this.online) { resolve(g); } else { reject(new Error("lost")); } } });
        });
      }),
    };
    this.client = new Q.Client(storage, transport);
    this.client.reconnect(1);
  }
  // act is one random thing the phone's holder does.
  act() {
    const sim = this.sim, c = this.client;
    const roll = sim.r();
    if (roll < 0.08) {
      this.online = !this.online;
      if (this.online) { c.reconnect(1); }
    } else if (roll < 0.12) {
      this.open(); // a reload, a closed tab, or leaving the table and entering the code again
    } else if (roll < 0.2) {
      this.decideOne();
    } else if (roll < 0.25 && this.server.deals.length > 0) {
      const n = 1 + sim.int(this.server.deals.length);
      c.add({ key: this.key(), kind: "correct", game: 1, deal: n, fields: this.night.content(n), reason: "typo" });
    } else if (!this.typing) {
      // Typing a deal: the form's number is fixed when typing starts.
      const f = c.form(1);
      this.typing = true;
      sim.at(sim.int(5), () => {
        this.typing = false;
        if (c !== this.client) { return; } // the page was reloaded: the unsaved form is gone
        c.add({ key: this.key(), kind: "deal", game: 1, deal: f.deal, base: f.base, fields: this.night.content(f.deal) });
      });
    }
    // The retry timer (of the page as it is now, after any reload).
    if (this.online && this.client.offline && sim.chance(0.5)) { this.client.retry(); }
  }
  // decideOne decides the first entry that needs it, as a table might.
  decideOne() {
    const c = this.client;
    const it = c.items().find((x) => x.state === Q.CONFLICT || x.state === Q.REFUSED);
    if (!it) { return false; }
    const r = this.sim.r();
    if (it.state === Q.CONFLICT) {
      if (r < 0.6) { c.keep(it.key); } else if (r < 0.8) { c.correct(it.key, "checked the cards", this.key()); } else { c.discard(it.key); }
    } else if (it.answer && it.answer.code === "invalid_entry" && r < 0.7) {
      c.fix(it.key, this.night.truth(it.deal), this.key());
    } else {
      c.discard(it.key);
    }
    return true;
  }
}

// Night holds what the table played: the true deal n and the typos.
class Night {
  constructor(sim) { this.sim = sim; this.truths = []; this.entered = new Map(); }
  truth(n) {
    while (this.truths.length < n) { this.truths.push({ s1_hand1: String(this.sim.int(20)), s2_hand1: String(this.sim.int(20)) }); }
    return Object.assign({}, this.truths[n - 1]);
  }
  content(n) {
    const r = this.sim.r();
    let f = this.truth(n);
    if (r < 0.15) { f = { s1_hand1: String(this.sim.int(20)), s3_last: "5" }; } else if (r < 0.2) { f = { bad: "1" }; } else if (r < 0.3) { f.s1_hand1 = " 0" + f.s1_hand1 + " "; }
    if (!this.entered.has(n)) { this.entered.set(n, []); }
    this.entered.get(n).push(f);
    return f;
  }
}

async function night(seed) {
  const sim = new Sim(rng(seed));
  const server = new Server();
  const nt = new Night(sim);
  const k = 2 + sim.int(3);
  const phones = [];
  for (let i = 0; i < k; i++) { phones.push(new Phone(sim, server, i, nt)); }
  const ticks = 60 + sim.int(120);
  for (let t = 0; t < ticks; t++) {
    sim.at(t, () => { const p = phones[sim.int(k)]; p.act(); });
  }
  await sim.run();
  // Everybody back online, the retry timers fire, the stream opens again.
  phones.forEach((p) => { if (!p.online) { p.online = true; p.client.reconnect(1); } });
  const settle = async () => {
    for (let i = 0; i < 20; i++) {
      phones.forEach((p) => p.client.retry());
      await sim.run();
    }
  };
  await settle();
  // 3. No phone holds an entry it neither sends nor shows: what is left
  // needs a decision, or waits, visibly, behind one that does.
  phones.forEach((p) => {
    const items = p.client.items();
    items.forEach((it) => {
      const s = Q.shownState(items, it);
      assert.ok([Q.CONFLICT, Q.REFUSED, Q.WAITING].includes(s),
        `phone ${p.id} holds deal ${it.deal} (${it.kind}) in state ${s} with nothing left to do`);
    });
  });
  // The tables decide; then nothing is left on any phone.
  for (let round = 0; round < 40; round++) {
    let any = false;
    phones.forEach((p) => { while (p.decideOne()) { any = true; } });
    await settle();
    if (!any) { break; }
  }
  phones.forEach((p) => assert.deepStrictEqual(p.client.items().map((it) => `${it.deal}:${Q.shownState(p.client.items(), it)}`), [],
    `phone ${p.id} still holds entries after every decision`));
  // 1. Every deal stored once: no entry stored under two numbers, and the
  // game has deals 1…m.
  const where = new Map();
  server.history.forEach((h) => {
    assert.ok(!where.has(h.key) || where.get(h.key) === h.n, `entry ${h.key} stored as deal ${where.get(h.key)} and deal ${h.n}`);
    where.set(h.key, h.n);
  });
  server.deals.forEach((d, i) => assert.ok(d, `deal ${i + 1} missing`));
  // 2. Each stored deal is one a phone entered for that number.
  server.deals.forEach((d, i) => {
    const typed = nt.entered.get(i + 1) || [];
    const fixes = [nt.truths[i]];
    assert.ok(typed.concat(fixes).some((f) => f && Q.same(f, d.fields)),
      `deal ${i + 1} holds ${JSON.stringify(d.fields)}, which no phone entered for deal ${i + 1}`);
  });
  // 4. Every phone converges to the server's game.
  phones.forEach((p) => p.client.refresh(1));
  await sim.run();
  const want = server.game().deals.map(Q.norm);
  phones.forEach((p) => assert.deepStrictEqual(p.client.games[1].deals.map(Q.norm), want, `phone ${p.id} differs from the server`));
  return { deals: server.deals.length, phones: k, writes: server.history.length };
}

test("the table protocol over random nights", async (t) => {
  const seeds = process.env.SEED ? [Number(process.env.SEED)] : Array.from({ length: Number(process.env.SEEDS || 250) }, (_, i) => i + 1);
  let deals = 0;
  for (const seed of seeds) {
    try {
      deals += (await night(seed)).deals;
    } catch (err) {
      err.message = `seed ${seed} (run again with SEED=${seed}): ${err.message}`;
      throw err;
    }
  }
  t.diagnostic(`${seeds.length} nights, ${deals} deals stored`);
  assert.ok(deals > seeds.length, "the nights stored hardly any deals");
});

test("an entry typed against the server's game goes through past a conflict", async () => {
  const items = [];
  const sent = [];
  const c = new Q.Client({ load: () => JSON.parse(JSON.stringify(items)), save: (x) => { items.length = 0; items.push(...x); } },
    { send: (e) => { sent.push(e.deal); return Promise.resolve(e.deal === 3 ? { status: 409, code: "deal_exists", stored: { s1_hand1: "9" } } : { status: 200, ok: true }); },
      read: () => Promise.resolve({ deals: [{}, {}] }) });
  await c.refresh(1);
  const f = c.form(1);
  assert.strictEqual(f.deal, 3, "form(1).deal");
  c.add({ key: "a", game: 1, deal: 3, base: f.base, fields: { s1_hand1: "3" } });
  await new Promise(setImmediate);
  const behind = c.form(1); // typed offline behind deal 3: waits
  assert.strictEqual(behind.base.after, "", "deal 3 is no longer queued: the next form follows the server");
  c.add({ key: "b", game: 1, deal: 4, base: { deals: 2, after: "a" }, fields: { s1_hand1: "4" } });
  c.add({ key: "c", game: 2, deal: 1, base: { deals: 0, after: "" }, fields: { s1_hand1: "1" } });
  await new Promise(setImmediate);
  const items2 = c.items();
  assert.deepStrictEqual(items2.map((it) => Q.shownState(items2, it)), [Q.CONFLICT, Q.WAITING], "states after the conflict");
  assert.deepStrictEqual(sent, [3, 1], "sent");
  c.keep("a");
  await new Promise(setImmediate);
  assert.deepStrictEqual(sent, [3, 1, 4], "deal 4 is sent once deal 3 is decided");
});

test("a form's number never goes back on a late read", async () => {
  const items = [];
  let answer;
  const c = new Q.Client({ load: () => items.slice(), save: (x) => { items.length = 0; items.push(...x); } },
    { send: () => Promise.resolve({ status: 200, ok: true }), read: () => new Promise((res) => { answer = res; }) });
  const late = c.refresh(1);
  c.add({ key: "a", game: 1, deal: 1, fields: { s1_hand1: "3" } });
  await new Promise(setImmediate);
  answer({ deals: [] }); // read before deal 1 was stored, answered after
  await late;
  assert.strictEqual(c.form(1).deal, 2, "form(1).deal after a late read");
});
