package bridge_test

import (
	"testing"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/bridge"
	"github.com/revisor-sm/revisor/engine/bridge/sim"
)

// playedMatch returns a simulated Chicago with the cards and the index of
// its first played deal.
func playedMatch(t *testing.T, seed uint64, game string) (*bridge.Record, int) {
	t.Helper()
	n := map[string]int{bridge.GameChicago: 4, bridge.GameDraw: 2}[game]
	rec := sim.New(seed, sim.Options{Play: true}).Match(game, sim.Players(n))
	for i, d := range rec.Deals {
		if d.Play != nil {
			return rec, i
		}
	}
	t.Fatal("no played deal")
	return nil, 0
}

func onlyError(t *testing.T, name string, rec *bridge.Record, code, path string) {
	t.Helper()
	res := bridge.Check(rec)
	if res.Valid || len(res.Errors) != 1 || res.Errors[0].Code != code || res.Errors[0].Path != path {
		t.Errorf("%s: errors %+v, want only %s at %s", name, res.Errors, code, path)
	}
}

// TestPlayMistakes breaks simulated deals one way at a time.
func TestPlayMistakes(t *testing.T) {
	t.Parallel()
	for _, game := range []string{bridge.GameChicago, bridge.GameDraw} {
		for seed := range uint64(20) {
			rec, i := playedMatch(t, seed, game)
			if res := bridge.Check(rec); !res.Valid {
				t.Fatalf("seed %d: the simulated match is not valid: %v", seed, res.Errors)
			}
			d := &rec.Deals[i]
			p := "/deals/" + itoa(i)
			n := len(rec.Players)

			d.Tricks = (d.Tricks + 1) % 14
			onlyError(t, game+" tricks", rec, bridge.CodeTricksMismatch, p+"/tricks")
			d.Tricks = (d.Tricks + 13) % 14

			first := d.Play[0][0]
			d.Play[0][0].Player = d.Play[0][1].Player
			onlyError(t, game+" out of turn", rec, bridge.CodeOutOfTurn, p+"/play/0/0")
			d.Play[0][0] = first

			// The leader plays a card of the next player's hand.
			d.Play[0][0].Card = d.Play[0][1%n].Card
			onlyError(t, game+" not held", rec, bridge.CodeCardNotHeld, p+"/play/0/0/card")
			d.Play[0][0] = first

			hand := d.Hands[rec.Players[0]]
			saved := hand[0]
			hand[0] = d.Hands[rec.Players[1]][0]
			res := bridge.Check(rec)
			if res.Valid || res.Errors[0].Code != bridge.CodeDuplicateCard {
				t.Errorf("%s seed %d: a card dealt twice: %v", game, seed, res.Errors)
			}
			hand[0] = saved
			d.Hands[rec.Players[0]] = hand[:12]
			onlyError(t, game+" 12 cards", rec, bridge.CodeInvalidHands, p+"/hands/p1")
			d.Hands[rec.Players[0]] = hand

			if res := bridge.Check(rec); !res.Valid {
				t.Fatalf("seed %d: restored match not valid: %v", seed, res.Errors)
			}
		}
	}
}

// TestRevoke plays a known deal: 1NT by anna, bo leads; cia
// discards while holding the suit led.
func TestRevoke(t *testing.T) {
	t.Parallel()
	deck := engine.NewDeck() // clubs 0-12, diamonds 13-25, hearts 26-38, spades 39-51
	hands := map[string][]engine.Card{}
	for j, c := range deck { // each player gets 3 or 4 cards of each suit
		hands[four[j%4]] = append(hands[four[j%4]], c)
	}
	// bo (seat 1, left of anna) leads; each trick the players play in turn the lowest
	// card they hold of the suit led, so the leads hold the lead while
	// he has cards of the suit.
	rec := record(t, bridge.GameChicago, four, "1NT P P P = 0")
	d := &rec.Deals[0]
	d.Hands = hands
	held := map[string][]engine.Card{}
	for p, h := range hands {
		held[p] = append([]engine.Card(nil), h...)
	}
	leader := 1
	for range 13 {
		var trick []bridge.Play
		var led, best engine.Card
		winner := leader
		for k := range 4 {
			seat := (leader + k) % 4
			h := held[four[seat]]
			pick := 0
			if k > 0 {
				for j, c := range h {
					if c.Suit() == led.Suit() {
						pick = j
						break
					}
				}
			}
			c := h[pick]
			held[four[seat]] = append(h[:pick], h[pick+1:]...)
			if k == 0 {
				led, best = c, c
			} else if c.Suit() == led.Suit() && c.Rank() > best.Rank() {
				best, winner = c, seat
			}
			trick = append(trick, bridge.Play{Player: four[seat], Card: c})
		}
		if winner%2 == 0 {
			d.Tricks++
		}
		d.Play = append(d.Play, trick)
		leader = winner
	}
	if res := bridge.Check(rec); !res.Valid {
		t.Fatalf("the known deal is not valid: %v", res.Errors)
	}
	// Find cia's first card that follows suit and swap it with one of
	// another suit she still holds then.
	for tr, trick := range d.Play {
		for k, pl := range trick {
			if pl.Player != "cia" || k == 0 {
				continue
			}
			for t2 := tr + 1; t2 < 13; t2++ {
				for k2, other := range d.Play[t2] {
					if other.Player == "cia" && other.Card.Suit() != pl.Card.Suit() {
						d.Play[tr][k].Card, d.Play[t2][k2].Card = other.Card, pl.Card
						res := bridge.Check(rec)
						if res.Valid || res.Errors[0].Code != bridge.CodeRevoke || res.Errors[0].Player != "cia" ||
							res.Errors[0].Path != "/deals/0/play/"+itoa(tr)+"/"+itoa(k)+"/card" {
							t.Fatalf("revoke at trick %d: %+v", tr, res.Errors)
						}
						return
					}
				}
			}
		}
	}
	t.Fatal("no revoke made")
}

func itoa(i int) string { return string(rune('0' + i/10))[:min(1, i/10)] + string(rune('0'+i%10)) }
