package engine

import "github.com/revisor-sm/revisor/engine/internal/jsontree"

// deal decodes a deal record at p. header: read rules, players, dealer and
// scores (a stand-alone deal); inside a game they are ignored.
func (d *decoder) deal(v jsontree.Node, p *ptr, header bool) *DealRecord {
	obj, ok := d.object(v, p)
	if !ok {
		return nil
	}
	rec := &DealRecord{}
	if header {
		d.dealHeader(rec, obj, p)
	}
	if v, ok := d.opt(obj, "deck"); ok {
		c := p.field("deck")
		if deck := d.cards(v, &c); len(deck) > 0 {
			rec.Deck = deck // an empty deck is no recorded deck
		}
	}
	if v, ok := d.field(obj, "hands", p, true); ok {
		c := p.field("hands")
		rec.Hands = d.hands(v, &c)
	}
	if v, ok := d.field(obj, "exchanges", p, true); ok {
		c := p.field("exchanges")
		rec.Exchanges = d.exchangeRounds(v, &c)
	}
	if v, ok := d.field(obj, "announcements", p, true); ok {
		c := p.field("announcements")
		rec.Announcements = d.phases(v, &c)
	}
	if v, ok := d.opt(obj, "chicago"); ok {
		c := p.field("chicago")
		rec.Chicago, _ = d.str(v, &c)
	}
	if v, ok := d.field(obj, "tricks", p, true); ok {
		c := p.field("tricks")
		rec.Tricks = d.tricks(v, &c)
	}
	return rec
}

func (d *decoder) dealHeader(rec *DealRecord, obj jsontree.Node, p *ptr) {
	if v, ok := d.opt(obj, "rules"); ok {
		c := p.field("rules")
		r := d.rules(v, &c)
		rec.Rules = &r
	}
	if v, ok := d.field(obj, "players", p, true); ok {
		c := p.field("players")
		rec.Players = d.strings(v, &c)
	}
	if v, ok := d.field(obj, "dealer", p, true); ok {
		c := p.field("dealer")
		rec.Dealer, _ = d.str(v, &c)
	}
	if v, ok := d.opt(obj, "scores"); ok {
		c := p.field("scores")
		if m, ok := d.object(v, &c); ok {
			rec.Scores = make(map[string]int, m.Len())
			for kvKey, kv := range d.members(m) {
				kc := c.field(kvKey)
				if n, ok := d.integer(kv, &kc); ok {
					rec.Scores[kvKey] = n
				}
			}
		}
	}
}

func (d *decoder) strings(v jsontree.Node, p *ptr) []string {
	a, ok := d.array(v, p)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(a))
	for i, e := range a {
		c := p.index(i)
		if s, ok := d.str(e, &c); ok {
			out = append(out, s)
		}
	}
	return out
}

func (d *decoder) hands(v jsontree.Node, p *ptr) map[string][]Card {
	m, ok := d.object(v, p)
	if !ok {
		return nil
	}
	out := make(map[string][]Card, m.Len())
	for kvKey, kv := range d.members(m) {
		c := p.field(kvKey)
		out[kvKey] = d.cards(kv, &c)
	}
	return out
}

func (d *decoder) exchangeRounds(v jsontree.Node, p *ptr) [][]Exchange {
	a, ok := d.array(v, p)
	if !ok {
		return nil
	}
	out := make([][]Exchange, len(a))
	for i, e := range a {
		c := p.index(i)
		list, ok := d.array(e, &c)
		if !ok {
			continue
		}
		out[i] = make([]Exchange, len(list))
		for j, x := range list {
			xc := c.index(j)
			out[i][j] = d.exchange(x, &xc)
		}
	}
	return out
}

func (d *decoder) exchange(v jsontree.Node, p *ptr) Exchange {
	var x Exchange
	obj, ok := d.object(v, p)
	if !ok {
		return x
	}
	hasPlayer := false
	kids := d.kids(obj)
	for i := 0; i+1 < len(kids); i += 2 {
		key, v := d.t.Text(kids[i]), kids[i+1]
		if v.Kind() == jsontree.Null && key != "player" {
			continue
		}
		c := p.field(key)
		switch key {
		case "player":
			hasPlayer = true
			x.Player, _ = d.str(v, &c)
		case "show":
			x.Show = d.cards(v, &c)
		case "discard":
			x.Discard = d.cards(v, &c)
		case "draw":
			x.Draw = d.cards(v, &c)
		case "open":
			x.Open = d.open(v, &c)
		case "reshuffled":
			x.Reshuffled = d.boolean(v, &c, false)
		}
	}
	if !hasPlayer {
		d.add("invalid_record", p, "missing %q", "player")
	}
	return x
}

func (d *decoder) open(v jsontree.Node, p *ptr) *OpenCard {
	obj, ok := d.object(v, p)
	if !ok {
		return nil
	}
	o := &OpenCard{}
	if v, ok := d.field(obj, "card", p, true); ok {
		c := p.field("card")
		o.Card, _ = d.card(v, &c)
	}
	if v, ok := d.field(obj, "taken", p, true); ok {
		c := p.field("taken")
		o.Taken = d.boolean(v, &c, false)
	}
	return o
}

// player reads the required "player" field of an entry.
func (d *decoder) player(obj jsontree.Node, p *ptr) string {
	v, ok := d.field(obj, "player", p, true)
	if !ok {
		return ""
	}
	c := p.field("player")
	s, _ := d.str(v, &c)
	return s
}

func (d *decoder) phases(v jsontree.Node, p *ptr) [][]Announcement {
	a, ok := d.array(v, p)
	if !ok {
		return nil
	}
	out := make([][]Announcement, len(a))
	for i, e := range a {
		c := p.index(i)
		list, ok := d.array(e, &c)
		if !ok {
			continue
		}
		out[i] = make([]Announcement, len(list))
		for j, x := range list {
			xc := c.index(j)
			out[i][j] = d.announcement(x, &xc)
		}
	}
	return out
}

func (d *decoder) tricks(v jsontree.Node, p *ptr) [][]Play {
	a, ok := d.array(v, p)
	if !ok {
		return nil
	}
	out := make([][]Play, len(a))
	for i, e := range a {
		c := p.index(i)
		list, ok := d.array(e, &c)
		if !ok {
			continue
		}
		out[i] = make([]Play, len(list))
		for j, x := range list {
			xc := c.index(j)
			out[i][j] = d.play(x, &xc)
		}
	}
	return out
}

// announcement decodes one entry of a phase in a single pass.
func (d *decoder) announcement(v jsontree.Node, p *ptr) Announcement {
	var a Announcement
	obj, ok := d.object(v, p)
	if !ok {
		return a
	}
	hasPlayer := false
	kids := d.kids(obj)
	for i := 0; i+1 < len(kids); i += 2 {
		key, v := d.t.Text(kids[i]), kids[i+1]
		switch {
		case key == "player":
			c := p.field(key)
			hasPlayer = true
			a.Player, _ = d.str(v, &c)
		case key == "announce" && v.Kind() != jsontree.Null:
			c := p.field(key)
			a.Announce, _ = d.str(v, &c)
		}
	}
	if !hasPlayer {
		d.add("invalid_record", p, "missing %q", "player")
	}
	return a
}

// play decodes one card played to a trick in a single pass.
func (d *decoder) play(v jsontree.Node, p *ptr) Play {
	var pl Play
	obj, ok := d.object(v, p)
	if !ok {
		return pl
	}
	hasPlayer, hasCard := false, false
	kids := d.kids(obj)
	for i := 0; i+1 < len(kids); i += 2 {
		key, v := d.t.Text(kids[i]), kids[i+1]
		switch key {
		case "player":
			c := p.field(key)
			hasPlayer = true
			pl.Player, _ = d.str(v, &c)
		case "card":
			c := p.field(key)
			hasCard = true
			pl.Card, _ = d.card(v, &c)
		}
	}
	if !hasPlayer {
		d.add("invalid_record", p, "missing %q", "player")
	}
	if !hasCard {
		d.add("invalid_record", p, "missing %q", "card")
	}
	return pl
}

// game decodes a game record.
func (d *decoder) game(v jsontree.Node) *GameRecord {
	obj, ok := d.object(v, nil)
	if !ok {
		return nil
	}
	g := &GameRecord{}
	if v, ok := d.opt(obj, "rules"); ok {
		c := ptr{key: "rules", idx: -1}
		r := d.rules(v, &c)
		g.Rules = &r
	}
	if v, ok := d.field(obj, "players", nil, true); ok {
		c := ptr{key: "players", idx: -1}
		g.Players = d.strings(v, &c)
	}
	if v, ok := d.field(obj, "first_dealer", nil, true); ok {
		c := ptr{key: "first_dealer", idx: -1}
		g.FirstDealer, _ = d.str(v, &c)
	}
	if v, ok := d.opt(obj, "ended_by"); ok {
		c := ptr{key: "ended_by", idx: -1}
		g.EndedBy, _ = d.str(v, &c)
	}
	if v, ok := d.field(obj, "deals", nil, true); ok {
		c := ptr{key: "deals", idx: -1}
		g.Deals = d.gameDeals(v, &c)
	}
	return g
}

func (d *decoder) gameDeals(v jsontree.Node, p *ptr) []GameDeal {
	a, ok := d.array(v, p)
	if !ok {
		return nil
	}
	if len(a) > MaxGameDeals { // refused whole: its deals are not read
		d.add("too_many_deals", p, "the record holds %d deals; a game holds at most %d", len(a), MaxGameDeals)
		return nil
	}
	out := make([]GameDeal, len(a))
	for i, e := range a {
		c := p.index(i)
		obj, ok := d.object(e, &c)
		if !ok {
			continue
		}
		if sv, ok := d.get(obj, "sheet"); ok {
			sc := c.field("sheet")
			out[i].Sheet = d.sheet(sv, &sc)
			continue
		}
		out[i].Deal = d.deal(obj, &c, false)
	}
	return out
}

func (d *decoder) sheet(v jsontree.Node, p *ptr) Sheet {
	m, ok := d.object(v, p)
	if !ok {
		return nil
	}
	s := make(Sheet, m.Len())
	for pvKey, pv := range d.members(m) {
		c := p.field(pvKey)
		src, ok := d.object(pv, &c)
		if !ok {
			continue
		}
		line := make(map[string]int, src.Len())
		for kvKey, kv := range d.members(src) {
			kc := c.field(kvKey)
			if n, ok := d.integer(kv, &kc); ok {
				line[kvKey] = n
			}
		}
		s[pvKey] = line
	}
	return s
}
