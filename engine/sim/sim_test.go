package sim_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/sim"
)

// variant is a rule set and a table size the property tests play.
type variant struct {
	name      string
	overrides map[string]any
	players   int
}

var variants = []variant{
	{"sm4", nil, 4},
	{"sm3", nil, 3},
	{"negative_scores", map[string]any{"negative_scores": true, "chicago_min_score": nil}, 4},
	{"chicago_declarer_leads", map[string]any{"first_lead": "chicago_declarer"}, 4},
	{"open_card_off", map[string]any{"open_card": "off"}, 3},
	{"stock_forbid", map[string]any{"stock_exhaustion": "forbid"}, 4},
	{"two_players", map[string]any{"players": "2-4"}, 2},
	{"house_mix", map[string]any{"quads_reset_opponents": true, "chicago_stacks_last_trick": true,
		"suit_order": "shdc", "exchange_stop": nil, "last_trick_points": 3, "target": 40}, 4},
	{"win_requires_chicago", map[string]any{"win_requires_chicago": true, "chicago_min_score": 0,
		"royal_instant_win": true}, 3},
	{"low_stop", map[string]any{"exchange_stop": 10, "chicago_points": 20, "false_announcement": "penalty"}, 4},
}

// rulesOf applies a variant's overrides to the preset sm.
func rulesOf(t testing.TB, v variant) engine.Rules {
	t.Helper()
	r := engine.SM()
	for _, k := range slices.Sorted(maps.Keys(v.overrides)) {
		var err error
		if r, err = r.Override(k, v.overrides[k]); err != nil {
			t.Fatalf("Override(%s, %v): %v", k, v.overrides[k], err)
		}
	}
	return r
}

// roundTrip marshals a deal record and decodes it again, as the CLI and the
// API see it.
func roundTrip(t testing.TB, d *engine.DealRecord) *engine.DealRecord {
	t.Helper()
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatalf("json.Marshal(deal): %v", err)
	}
	back, err := engine.DecodeDeal(data)
	if err != nil {
		t.Fatalf("DecodeDeal(simulated deal) = %v\n%s", err, data)
	}
	return back
}

func TestSimulatedDealsValidate(t *testing.T) {
	t.Parallel()
	deals, exchanged, opened, reshuffled, chicagos, lost, over := 0, 0, 0, 0, 0, 0, 0
	for _, v := range variants {
		r := rulesOf(t, v)
		for seed := uint64(1); seed <= 60; seed++ {
			s := sim.New(seed, r)
			players := sim.Players(v.players)
			dealer := players[int(seed)%len(players)]
			d := s.Deal(players, dealer, s.Scores(players, 50))
			res := engine.CheckDeal(d)
			if !res.Valid || len(res.Violations) > 0 {
				data, _ := json.Marshal(d)
				t.Fatalf("%s seed %d: CheckDeal = valid %v, errors %+v, violations %+v\n%s",
					v.name, seed, res.Valid, res.Errors, res.Violations, data)
			}
			checkDealScores(t, v.name, seed, r, d, res)
			if !r.WinRequiresChicago && !r.RoyalInstantWin {
				checkDealEnd(t, v.name, seed, r, d, res)
			}
			checkDealOutcome(t, v.name, seed, d, res)
			checkAwards(t, v.name, seed, r, d, res)
			again := engine.CheckDeal(roundTrip(t, d))
			if got, want := mustJSON(t, again), mustJSON(t, res); got != want {
				t.Errorf("%s seed %d: CheckDeal(decoded JSON) = %s, want %s", v.name, seed, got, want)
			}
			deals++
			if res.GameOver {
				over++
			}
			for _, round := range d.Exchanges {
				for _, x := range round {
					exchanged += len(x.Discard)
					if x.Open != nil {
						opened++
					}
					if x.Reshuffled {
						reshuffled++
					}
				}
			}
			if d.Chicago != "" {
				chicagos++
				if res.Ended == engine.EndedChicagoLost {
					lost++
				}
			}
		}
	}
	t.Logf("%d deals: %d cards exchanged, %d open cards, %d reshuffles, %d Chicagos (%d lost), %d end the game",
		deals, exchanged, opened, reshuffled, chicagos, lost, over)
	if opened == 0 || reshuffled == 0 || chicagos == 0 || lost == 0 || lost == chicagos || over == 0 {
		t.Errorf("the simulation does not reach every feature: %d open cards, %d reshuffles, %d Chicagos, %d lost",
			opened, reshuffled, chicagos, lost)
	}
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal: %v", err)
	}
	return string(b)
}

// checkDealScores replays the awards in order with the floor and the quads
// reset and compares with the result's points and scores.
func checkDealScores(t *testing.T, name string, seed uint64, r engine.Rules, d *engine.DealRecord, res *engine.DealResult) {
	t.Helper()
	score := maps.Clone(d.Scores)
	for _, a := range res.Awards {
		score[a.Player] += a.Points
		if score[a.Player] < 0 && !r.NegativeScores {
			score[a.Player] = 0
		}
		if a.Category == engine.FourOfAKind.String() && r.QuadsResetOpponents {
			for _, p := range d.Players {
				if p != a.Player {
					score[p] = 0
				}
			}
		}
	}
	for _, p := range d.Players {
		if res.Scores[p] != score[p] || res.Points[p] != score[p]-d.Scores[p] {
			t.Errorf("%s seed %d: %s has points %d, score %d; awards %+v from %d give %d",
				name, seed, p, res.Points[p], res.Scores[p], res.Awards, d.Scores[p], score[p])
		}
	}
}

// checkDealOutcome recomputes from the record who won the tricks, whether a
// Chicago was lost, and that the last trick or the Chicago is scored.
func checkDealOutcome(t *testing.T, name string, seed uint64, d *engine.DealRecord, res *engine.DealResult) {
	t.Helper()
	winner := ""
	lostChicago := false
	for _, trick := range d.Tricks {
		winner = trickWinner(trick)
		if d.Chicago != "" && winner != d.Chicago {
			lostChicago = true
		}
	}
	want := engine.EndedComplete
	if lostChicago {
		want = engine.EndedChicagoLost
	}
	if res.Ended != want {
		t.Errorf("%s seed %d: ended = %q, want %q", name, seed, res.Ended, want)
	}
	if !lostChicago && len(d.Tricks) != 5 {
		t.Errorf("%s seed %d: %d tricks without a lost Chicago", name, seed, len(d.Tricks))
	}
	src := engine.SourceLastTrick
	if d.Chicago != "" {
		src = engine.SourceChicago
	}
	found := false
	for _, a := range res.Awards {
		if a.Source == src {
			found = a.Player == winner || a.Player == d.Chicago
		}
	}
	if !found && (d.Chicago != "" || d.Rules.LastTrickPoints != 0) {
		t.Errorf("%s seed %d: no %s award for %s in %+v", name, seed, src, winner, res.Awards)
	}
}

// trickWinner returns the player of the highest card of the led suit.
func trickWinner(trick []engine.Play) string {
	best := trick[0]
	for _, p := range trick[1:] {
		if p.Card.Suit() == best.Card.Suit() && p.Card.Rank() > best.Card.Rank() {
			best = p
		}
	}
	return best.Player
}

func TestSimulatedGamesValidate(t *testing.T) {
	t.Parallel()
	for _, v := range variants {
		r := rulesOf(t, v)
		for seed := uint64(1); seed <= 8; seed++ {
			s := sim.New(seed, r)
			players := sim.Players(v.players)
			g := s.Game(players, players[int(seed)%len(players)])
			res := engine.CheckGame(g, engine.GameOptions{})
			if !res.Valid || len(res.Violations) > 0 {
				t.Fatalf("%s seed %d: CheckGame = valid %v, errors %+v, violations %+v",
					v.name, seed, res.Valid, res.Errors, res.Violations)
			}
			if res.GameOver != (g.EndedBy == engine.EndedByTarget) {
				t.Errorf("%s seed %d: game_over %v, ended_by %q", v.name, seed, res.GameOver, g.EndedBy)
			}
			checkGameScores(t, v.name, seed, g, res)
			checkPlacements(t, v.name, seed, res)
			checkGameRoundTrip(t, v.name, seed, g, res)
			checkSheetGame(t, v.name, seed, s, g, res)
		}
	}
}

// checkGameScores: each deal starts from the scores the one before ended
// with, scores = start + points, each deal checked alone agrees, and the
// game's scores are the last deal's.
func checkGameScores(t *testing.T, name string, seed uint64, g *engine.GameRecord, res *engine.GameResult) {
	t.Helper()
	score := map[string]int{}
	for _, p := range g.Players {
		score[p] = 0
	}
	for k, dr := range res.Deals {
		checkAwards(t, fmt.Sprintf("%s deal %d", name, k), seed, *g.Rules, g.Deals[k].Deal, &res.Deals[k])
		alone := *g.Deals[k].Deal
		alone.Scores = maps.Clone(score)
		ar := engine.CheckDeal(&alone)
		if !maps.Equal(ar.Points, dr.Points) {
			t.Errorf("%s seed %d deal %d: points alone %v, in the game %v", name, seed, k, ar.Points, dr.Points)
		}
		for _, p := range g.Players {
			score[p] += dr.Points[p]
		}
		if !maps.Equal(score, dr.Scores) {
			t.Errorf("%s seed %d deal %d: scores %v, want start + points %v", name, seed, k, dr.Scores, score)
		}
	}
	if !maps.Equal(score, res.Scores) {
		t.Errorf("%s seed %d: game scores %v, want the sum over deals %v", name, seed, res.Scores, score)
	}
}

// checkPlacements: every player placed once, places sorted and shared only
// by equal totals, place = 1 + the number of players ranked strictly ahead,
// winners first.
func checkPlacements(t *testing.T, name string, seed uint64, res *engine.GameResult) {
	t.Helper()
	if len(res.Placements) != len(res.Scores) {
		t.Fatalf("%s seed %d: %d placements for %d players", name, seed, len(res.Placements), len(res.Scores))
	}
	for i, pl := range res.Placements {
		if pl.Score != res.Scores[pl.Player] {
			t.Errorf("%s seed %d: placement %+v, score %d", name, seed, pl, res.Scores[pl.Player])
		}
		ahead := 0
		for _, o := range res.Placements {
			if o.Place < pl.Place {
				ahead++
			}
		}
		if pl.Place != ahead+1 {
			t.Errorf("%s seed %d: %s placed %d with %d ahead", name, seed, pl.Player, pl.Place, ahead)
		}
		if i > 0 && res.Placements[i-1].Place == pl.Place && res.Placements[i-1].Score != pl.Score {
			t.Errorf("%s seed %d: %+v and %+v share a place", name, seed, res.Placements[i-1], pl)
		}
	}
	for _, w := range res.Winners {
		if i := slices.IndexFunc(res.Placements, func(p engine.Placement) bool { return p.Player == w }); res.Placements[i].Place != 1 {
			t.Errorf("%s seed %d: winner %s placed %d", name, seed, w, res.Placements[i].Place)
		}
	}
	// A game ends without a winner only when everyone who reached the
	// target forfeited it (docs/game-rules.md): then someone forfeited.
	if res.GameOver && len(res.Winners) == 0 && len(res.Forfeits) == 0 {
		t.Errorf("%s seed %d: game over without winners or forfeits", name, seed)
	}
}

func checkGameRoundTrip(t *testing.T, name string, seed uint64, g *engine.GameRecord, res *engine.GameResult) {
	t.Helper()
	data, err := json.Marshal(g)
	if err != nil {
		t.Fatalf("json.Marshal(game): %v", err)
	}
	back, err := engine.DecodeGame(data)
	if err != nil {
		t.Fatalf("%s seed %d: DecodeGame(simulated game) = %v", name, seed, err)
	}
	if got, want := mustJSON(t, engine.CheckGame(back, engine.GameOptions{})), mustJSON(t, res); got != want {
		t.Errorf("%s seed %d: CheckGame(decoded JSON) = %s, want %s", name, seed, got, want)
	}
}

// checkSheetGame: the score sheet of a clean game, and a mix of sheets and
// full deals, score exactly as the game.
func checkSheetGame(t *testing.T, name string, seed uint64, s *sim.Sim, g *engine.GameRecord, res *engine.GameResult) {
	t.Helper()
	for _, p := range []float64{1, 0.5} {
		sg := s.SheetsOf(g, p)
		sr := engine.CheckGame(sg, engine.GameOptions{})
		if !sr.Valid {
			t.Fatalf("%s seed %d: sheet game (p=%v) invalid: %+v", name, seed, p, sr.Errors)
		}
		if !maps.Equal(sr.Scores, res.Scores) || sr.GameOver != res.GameOver ||
			!slices.Equal(sr.Winners, res.Winners) || !slices.Equal(sr.Placements, res.Placements) {
			t.Errorf("%s seed %d: sheet game (p=%v) scores %v winners %v placements %v, want %v %v %v",
				name, seed, p, sr.Scores, sr.Winners, sr.Placements, res.Scores, res.Winners, res.Placements)
		}
	}
}

func TestSimIsDeterministic(t *testing.T) {
	t.Parallel()
	r := engine.SM()
	players := sim.Players(4)
	a := mustJSON(t, sim.New(7, r).Game(players, "p1"))
	b := mustJSON(t, sim.New(7, r).Game(players, "p1"))
	c := mustJSON(t, sim.New(8, r).Game(players, "p1"))
	if a != b {
		t.Errorf("Game(seed 7) differs between runs")
	}
	if a == c {
		t.Errorf("Game(seed 7) = Game(seed 8)")
	}
}

// TestOpenCardsAtTheEndOfTheStock plays many deals in which every one-card
// exchange asks for the open card, so that open cards meet an empty stock.
// The sharpest case: the open card is the last card of the deck and is
// refused, so the stock is reshuffled for the draw right after it, and the
// refused card may come back (docs/rules.md).
func TestOpenCardsAtTheEndOfTheStock(t *testing.T) {
	t.Parallel()
	opt := sim.DefaultOptions()
	opt.OpenCard = 1
	s := sim.NewWithOptions(11, engine.SM(), opt)
	players := sim.Players(4)
	lastCard, drawnBack := 0, 0
	for i := 0; i < 8000 && (lastCard < 100 || drawnBack < 3); i++ {
		d := s.Deal(players, players[i%4], nil)
		res := engine.CheckDeal(d)
		if !res.Valid {
			t.Fatalf("deal %d: invalid %+v", i, res.Errors)
		}
		for _, round := range d.Exchanges {
			for _, x := range round {
				if x.Open != nil && !x.Open.Taken && x.Open.Card == d.Deck[51] {
					lastCard++
					if x.Draw[0] == x.Open.Card {
						drawnBack++
					}
				}
			}
		}
	}
	if lastCard < 100 || drawnBack == 0 {
		t.Errorf("the last card of the deck was a refused open card %d times in 8000 deals (want 100), drawn back %d times (want some)",
			lastCard, drawnBack)
	}
	t.Logf("the last card of the deck was a refused open card %d times, drawn back after the reshuffle %d times", lastCard, drawnBack)
}

// checkDealEnd: a stand-alone deal ends the game when someone has reached
// the target, and the highest totals win.
func checkDealEnd(t *testing.T, name string, seed uint64, r engine.Rules, d *engine.DealRecord, res *engine.DealResult) {
	t.Helper()
	top, over := 0, false
	for i, p := range d.Players {
		if i == 0 || res.Scores[p] > top {
			top = res.Scores[p]
		}
		over = over || res.Scores[p] >= r.Target
	}
	var winners []string
	for _, p := range d.Players {
		if over && res.Scores[p] == top {
			winners = append(winners, p)
		}
	}
	if res.GameOver != over || !slices.Equal(res.Winners, winners) && len(winners)+len(res.Winners) > 0 {
		t.Errorf("%s seed %d: scores %v: game_over %v winners %v, want %v %v", name, seed, res.Scores, res.GameOver, res.Winners, over, winners)
	}
}
