package tournament_test

import (
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/internal/racecheck"
	"github.com/revisor-sm/revisor/tournament"
)

// tallyWorld is a tournament that grows as a hall plays: results of the
// open round arrive, results are corrected (a new row), rounds close and
// are drawn, players and adjustments come.
type tallyWorld struct {
	rng    *rand.Rand
	st     *tournament.State
	nextID int64
}

func newTallyWorld(seed uint64, format tournament.Format) *tallyWorld {
	w := &tallyWorld{rng: rand.New(rand.NewPCG(seed, 28))}
	set := tournament.Settings{PlacementPoints: []int{20, 12, 8, 5}, Tiebreaks: []string{"game_points", "games_won", "best_game", "lot"}}
	w.st = &tournament.State{Tournament: tournament.Tournament{Format: format, Settings: set}}
	for range 8 + w.rng.IntN(40) {
		w.addPlayer()
	}
	w.draw()
	return w
}

func (w *tallyWorld) addPlayer() {
	n := len(w.st.Players) + 1
	w.st.Players = append(w.st.Players, tournament.Player{ID: "p" + strconv.Itoa(n), Name: "Player " + strconv.Itoa(n),
		Status: tournament.PlayerActive, Seq: n})
}

// draw opens a round of tables of 4 over a random part of the players.
func (w *tallyWorld) draw() {
	ids := make([]string, len(w.st.Players))
	for i, p := range w.st.Players {
		ids[i] = p.ID
	}
	w.rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	ids = ids[:4*max(1, w.rng.IntN(len(ids)/4)+1)]
	r := tournament.Round{Number: len(w.st.Rounds) + 1, Status: tournament.RoundOpen,
		CreatedAt: time.Date(2026, 12, 4, 19, len(w.st.Rounds), 0, 0, time.UTC)}
	for t := range len(ids) / 4 {
		r.Tables = append(r.Tables, tournament.Table{Number: t + 1, Players: ids[4*t : 4*t+4]})
	}
	w.st.Rounds = append(w.st.Rounds, r)
}

// result is a new row for game g at table t of round r.
func (w *tallyWorld) result(r *tournament.Round, t tournament.Table, g int) tournament.GameResult {
	w.nextID++
	res := tournament.GameResult{ID: w.nextID, Key: tournament.GameKey{Round: r.Number, Table: t.Number, Game: g}}
	for place, p := range w.rng.Perm(4) {
		res.Places = append(res.Places, tournament.GamePlace{Player: t.Players[p], Place: place + 1,
			Score: 52 - place*10 + w.rng.IntN(30) - 20, Points: w.st.Tournament.Settings.PlacementPoints[place]})
	}
	return res
}

// step changes the tournament one way, at random.
func (w *tallyWorld) step() string {
	open := &w.st.Rounds[len(w.st.Rounds)-1]
	switch k := w.rng.IntN(20); {
	case k < 12: // a result of the open round
		t := open.Tables[w.rng.IntN(len(open.Tables))]
		w.st.Results = append(w.st.Results, w.result(open, t, 1+w.rng.IntN(3)))
		return "result"
	case k < 14 && len(w.st.Results) > 0: // a correction, of any round
		i := w.rng.IntN(len(w.st.Results))
		old := w.st.Results[i]
		r := &w.st.Rounds[old.Key.Round-1]
		w.st.Results = append(w.st.Results[:i:i], w.st.Results[i+1:]...)
		w.st.Results = append(w.st.Results, w.result(r, r.Tables[old.Key.Table-1], old.Key.Game))
		return "correction"
	case k < 16: // the round closes, the next is drawn
		open.Status = tournament.RoundClosed
		if w.st.Tournament.Format == tournament.FormatSM {
			for _, t := range open.Tables {
				for i, p := range t.Players {
					w.st.Outcomes = append(w.st.Outcomes, tournament.Outcome{Round: open.Number, Table: t.Number, Player: p, Rank: i + 1, Advanced: i < 2})
				}
			}
		}
		w.draw()
		return "round"
	case k < 17:
		w.addPlayer()
		return "player"
	case k < 18 && len(w.st.Results) > 0:
		res := w.st.Results[w.rng.IntN(len(w.st.Results))]
		scale := tournament.ScalePlacementPoints
		if w.rng.IntN(2) == 0 {
			scale = tournament.ScaleGamePoints
		}
		w.st.Adjustments = append(w.st.Adjustments, tournament.Adjustment{Key: res.Key, Player: res.Places[0].Player,
			Points: w.rng.IntN(7) - 4, Scale: scale})
		return "adjustment"
	case k < 19 && len(w.st.Rounds) > 1: // a closed round reopened
		w.st.Rounds[len(w.st.Rounds)-2].Status = tournament.RoundOpen
		return "reopened"
	default: // the same snapshot read again
		return "again"
	}
}

// snapshot is a copy of the tournament as a reader gets it: nothing
// shared with the next.
func (w *tallyWorld) snapshot() *tournament.State {
	st := *w.st
	st.Players = append([]tournament.Player(nil), w.st.Players...)
	st.Rounds = append([]tournament.Round(nil), w.st.Rounds...)
	st.Results = append([]tournament.GameResult(nil), w.st.Results...)
	st.Outcomes = append([]tournament.Outcome(nil), w.st.Outcomes...)
	st.Adjustments = append([]tournament.Adjustment(nil), w.st.Adjustments...)
	return &st
}

// TestStandingsWithEqualsStandings (issue 28): standings made from the
// closed rounds' kept totals and the open rounds' results equal the
// standings computed from every result, through results, corrections of
// closed rounds, rounds closed and reopened, new players and adjustments;
// 300 tournaments of 60 changes each, Swiss and SM.
func TestStandingsWithEqualsStandings(t *testing.T) {
	t.Parallel()
	racecheck.OutOfRace(t) // the tally's computation
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	tournaments := 300
	if testing.Short() {
		tournaments = 60 // the quick tier
	}
	for n := range tournaments {
		format := tournament.FormatSwiss
		if n%2 == 1 {
			format = tournament.FormatSM
		}
		w := newTallyWorld(seed+uint64(n), format)
		var tally *tournament.Tally
		for i := range 60 {
			what := w.step()
			st := w.snapshot()
			var got []tournament.Standing
			got, tally = tournament.StandingsWith(tally, st)
			if want := tournament.Standings(st); !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d, tournament %d (%s), change %d (%s): StandingsWith differs from Standings:\n got %+v\nwant %+v",
					seed, n, format, i, what, got, want)
			}
		}
	}
}
