package postgres_test

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/revisor-sm/revisor/internal/racecheck"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
	"github.com/revisor-sm/revisor/tournament/transfer"
)

// playRound submits a legal sheet game for every game of round r.
func (e *env) playSheets(tb testing.TB, tid string, r *tournament.Round, games int, rng *rand.Rand) {
	tb.Helper()
	for _, t := range r.Tables {
		for g := 1; g <= games; g++ {
			e.mustSubmit(tb, tournament.GameKey{TournamentID: tid, Round: r.Number, Table: t.Number, Game: g},
				tournamenttest.SheetGame(rng, t.Players, t.FirstDealerOf(g)))
		}
	}
}

// exported runs a tournament of 12 players through a closed round and half
// of a second, and returns its export as the file would hold it.
func exported(t *testing.T, e *env) (*tournament.Created, []byte) {
	t.Helper()
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "Export", Format: tournament.FormatSwiss, Rounds: intp(3), Language: "da"}, 12)
	tid := c.Tournament.ID
	rng := rand.New(rand.NewPCG(4, 4))
	e.playSheets(t, tid, e.mustDraw(t, tid, 1), 3, rng)
	if _, err := e.plays.CloseRound(e.ctx, org, tid, 1); err != nil {
		t.Fatal(err)
	}
	r2 := e.mustDraw(t, tid, 2)
	e.playSheets(t, tid, &tournament.Round{Number: 2, Tables: r2.Tables[:1]}, 2, rng)
	ex, err := e.transfer().Export(e.ctx, org, tid)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(ex)
	if err != nil {
		t.Fatal(err)
	}
	return c, data
}

// TestExportImportRoundTrip imports an export into another database and
// checks that the standings, rounds and results are the same there, under
// a new organizer token.
func TestExportImportRoundTrip(t *testing.T) {
	t.Parallel()
	racecheck.OutOfRace(t) // the draw's search
	src := newEnv(t)
	c, data := exported(t, src)
	dst := newEnv(t)
	var ex transfer.Export
	if err := json.Unmarshal(data, &ex); err != nil {
		t.Fatal(err)
	}
	created, err := dst.transfer().Import(dst.ctx, admin, &ex)
	if err != nil {
		t.Fatalf("Import: %v", err)
	}
	_, want, _ := src.svc.Standings(src.ctx, c.Tournament.ID)
	_, got, _ := dst.svc.Standings(dst.ctx, created.Tournament.ID)
	for i := range want {
		want[i].Player.TournamentID, got[i].Player.TournamentID = "", ""
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("standings after import differ:\ngot  %+v\nwant %+v", got, want)
	}
	for n := 1; n <= 2; n++ {
		a, _ := src.plays.Round(src.ctx, c.Tournament.ID, n)
		b, err := dst.plays.Round(dst.ctx, created.Tournament.ID, n)
		if err != nil {
			t.Fatalf("Round(%d) after import: %v", n, err)
		}
		if !reflect.DeepEqual(a.Round.Tables, b.Round.Tables) || a.Round.Status != b.Round.Status || len(a.Results) != len(b.Results) {
			t.Errorf("round %d after import: tables equal %v, status %s want %s, %d results want %d", n,
				reflect.DeepEqual(a.Round.Tables, b.Round.Tables), b.Round.Status, a.Round.Status, len(b.Results), len(a.Results))
		}
	}
	if l := created.Tournament.Settings.Language; l != "da" {
		t.Errorf("language after import = %q, want da", l)
	}
	id, err := dst.svc.Identify(dst.ctx, "", created.OrganizerToken, tournament.Where{})
	if err != nil || id.Tournament != created.Tournament.ID {
		t.Errorf("the new organizer token identifies %+v, %v; want the imported tournament", id, err)
	}
	// The open round goes on: the rest of its games can be submitted and it closes.
	r2, _ := dst.plays.Round(dst.ctx, created.Tournament.ID, 2)
	rng := rand.New(rand.NewPCG(8, 8))
	dst.playSheets(t, created.Tournament.ID, &tournament.Round{Number: 2, Tables: r2.Round.Tables[1:]}, 3, rng)
	t1 := r2.Round.Tables[0]
	dst.mustSubmit(t, tournament.GameKey{TournamentID: created.Tournament.ID, Round: 2, Table: 1, Game: 3},
		tournamenttest.SheetGame(rng, t1.Players, t1.FirstDealerOf(3)))
	if _, err := dst.plays.CloseRound(dst.ctx, org, created.Tournament.ID, 2); err != nil {
		t.Errorf("closing the imported open round after its last games: %v", err)
	}
}

// TestImportRejects checks that a bad file is refused with the place at
// fault, and that nothing of it is stored.
func TestImportRejects(t *testing.T) {
	t.Parallel()
	racecheck.OutOfRace(t) // the draw's search
	src := newEnv(t)
	_, data := exported(t, src)
	tests := []struct {
		name   string
		change func(*transfer.Export)
		path   string
	}{
		{"format", func(x *transfer.Export) { x.Format = "other/9" }, "/format"},
		{"settings", func(x *transfer.Export) { x.Tournament.GamesPerRound = 0 }, "/tournament"},
		{"duplicate player", func(x *transfer.Export) { x.Players[1].ID = x.Players[0].ID }, "/players/1/id"},
		{"unknown seat", func(x *transfer.Export) {
			tb := &x.Rounds[0].Tables[0]
			i := 0
			if tb.Players[0] == tb.FirstDealer {
				i = 1
			}
			tb.Players[i] = "p999"
		}, "/rounds/0/tables/0/players"},
		{"open round before a later one", func(x *transfer.Export) { x.Rounds[0].Status = "open" }, "/rounds/0/status"},
		{"negative search steps", func(x *transfer.Export) { x.Rounds[0].SearchSteps = -1 }, "/rounds/0/search_steps"},
		{"record of another table", func(x *transfer.Export) { x.Results[0].Table = 2 }, "/results/0/record"},
		{"game twice", func(x *transfer.Export) { x.Results[1] = x.Results[0] }, "/results/1"},
		{"forged record", func(x *transfer.Export) {
			x.Results[0].Record = json.RawMessage(`{"players":[],"first_dealer":"x","deals":[]}`)
		}, "/results/0/record"},
	}
	dst := newEnv(t)
	for _, tt := range tests {
		var ex transfer.Export
		if err := json.Unmarshal(data, &ex); err != nil {
			t.Fatal(err)
		}
		tt.change(&ex)
		_, err := dst.transfer().Import(dst.ctx, admin, &ex)
		var te *tournament.Error
		if !errorsAs(err, &te) || te.Kind != tournament.KindRejected || te.Details["path"] != tt.path {
			t.Errorf("Import(%s) = %v, want a rejection at %s", tt.name, err, tt.path)
		}
	}
	var n int
	if err := dst.pool.QueryRow(dst.ctx, `SELECT count(*) FROM tournaments`).Scan(&n); err != nil || n != 0 {
		t.Errorf("tournaments after rejected imports = %d (%v), want 0", n, err)
	}
	var ex transfer.Export
	_ = json.Unmarshal(data, &ex)
	if _, err := dst.transfer().Import(dst.ctx, org, &ex); tournament.ErrorKind(err) != tournament.KindForbidden {
		t.Errorf("Import by an organizer = %v, want forbidden", err)
	}
}
