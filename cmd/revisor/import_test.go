package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/postgres"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// TestExportImportCommands exports a tournament from one database with
// `revisor export` and loads it into another with `revisor import`.
func TestExportImportCommands(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srcURL, dstURL := dbtest.NewURL(t), dbtest.NewURL(t)
	pool, err := pgxpool.New(ctx, srcURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	svc := tournament.NewService(postgres.NewStore(pool))
	plays := play.New(svc, postgres.NewStore(pool))
	org := tournament.Actor{Role: tournament.RoleOrganizer}
	c, err := svc.CreateTournament(ctx, tournament.Actor{Role: tournament.RoleAdmin},
		tournament.NewTournament{Name: "Export me", Format: tournament.FormatSM})
	if err != nil {
		t.Fatal(err)
	}
	tid := c.Tournament.ID
	if _, err := svc.AddPlayers(ctx, org, tid, []tournament.NewPlayer{{Name: "A"}, {Name: "B"}, {Name: "C"}, {Name: "D"}}); err != nil {
		t.Fatal(err)
	}
	seed := int64(3)
	r, err := plays.DrawRound(ctx, org, tid, &seed)
	if err != nil {
		t.Fatal(err)
	}
	tb := r.Tables[0]
	rec := tournamenttest.TimedGame(tb.Players, tb.FirstDealerOf(1), map[string]map[string]int{tb.Players[1]: {"last_trick": 5}})
	if _, err := plays.SubmitGame(ctx, org, tournament.GameKey{TournamentID: tid, Round: 1, Table: 1, Game: 1}, rec); err != nil {
		t.Fatal(err)
	}

	file := filepath.Join(t.TempDir(), "t.json")
	var out, errOut bytes.Buffer
	src := mapEnv{"DATABASE_URL": srcURL}
	if err := run(ctx, []string{"export", "-o", file, tid}, src.get, nil, &out, &errOut); err != nil {
		t.Fatalf("revisor export: %v\n%s", err, errOut.String())
	}
	dst := mapEnv{"DATABASE_URL": dstURL}
	out.Reset()
	if err := run(ctx, []string{"import", file}, dst.get, nil, &out, &errOut); err != nil {
		t.Fatalf("revisor import: %v\n%s", err, errOut.String())
	}
	m := regexp.MustCompile(`as tournament (\S+)\norganizer token \(shown only this once\): (\S+)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("revisor import printed %q, want the new ID and token", out.String())
	}
	dpool, err := pgxpool.New(ctx, dstURL)
	if err != nil {
		t.Fatal(err)
	}
	defer dpool.Close()
	dsvc := tournament.NewService(postgres.NewStore(dpool))
	dsvcPlays := play.New(dsvc, postgres.NewStore(dpool))
	rv, err := dsvcPlays.Round(ctx, m[1], 1)
	if err != nil || len(rv.Results) != 1 {
		t.Fatalf("imported round 1: %v, %d results; want 1 result", err, len(rv.Results))
	}
	if id, err := dsvc.Identify(ctx, "", m[2], tournament.Where{}); err != nil || id.Tournament != m[1] {
		t.Errorf("the printed token identifies %+v, %v", id, err)
	}

	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"format": "revisor-tournament/1", "surprise": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(ctx, []string{"import", bad}, dst.get, nil, &out, &errOut); err == nil || !strings.Contains(err.Error(), "not a Revisor tournament file") {
		t.Errorf("revisor import of a foreign file = %v, want it refused", err)
	}
	if err := run(ctx, []string{"export"}, src.get, nil, &out, &errOut); err == nil {
		t.Errorf("revisor export without an ID = nil, want a usage error")
	}
}
