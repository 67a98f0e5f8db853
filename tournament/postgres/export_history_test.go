package postgres_test

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/internal/racecheck"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/referee"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
	"github.com/revisor-sm/revisor/tournament/transfer"
)

// historyTournament plays a tournament with everything a history holds:
// a game entered deal by deal with a corrected deal and a confirmation,
// a dispute with a reconstruction upheld with a corrected record and a
// point adjustment, a rejected dispute, an open one, a reopened window
// and the audit log all of it wrote.
func historyTournament(t *testing.T, e *env) (string, *referee.Service) {
	t.Helper()
	refs := referee.New(e.svc, e.plays, e.referees)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "Historia", Format: tournament.FormatSwiss, Rounds: intp(2)}, 8)
	tid := c.Tournament.ID
	rng := rand.New(rand.NewPCG(7, 7))
	r := e.mustDraw(t, tid, 1)
	tb := r.Tables[0]
	table := tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: tb.Number}
	k := tournament.GameKey{TournamentID: tid, Round: 1, Table: tb.Number, Game: 1}
	deals := tournamenttest.DealOf(tournamenttest.SheetGame(rng, tb.Players, tb.FirstDealerOf(1)))
	for n, d := range deals {
		if _, err := e.plays.AppendDealAt(e.ctx, table, k, n+1, d); err != nil {
			t.Fatalf("deal %d: %v", n+1, err)
		}
		if n == 0 { // corrected to another deal and back
			for _, v := range [][]byte{deals[1], d} {
				if _, err := e.plays.CorrectDeal(e.ctx, table, k, 1, v, "skrev fel rad"); err != nil {
					t.Fatalf("correct deal 1: %v", err)
				}
			}
		}
	}
	if _, err := e.plays.ConfirmGame(e.ctx, table, k, tb.Players[2]); err != nil {
		t.Fatalf("confirm: %v", err)
	}
	for _, x := range r.Tables {
		for g := 1; g <= 3; g++ {
			if x.Number != tb.Number || g > 1 {
				e.mustSubmit(t, tournament.GameKey{TournamentID: tid, Round: 1, Table: x.Number, Game: g},
					tournamenttest.SheetGame(rng, x.Players, x.FirstDealerOf(g)))
			}
		}
	}
	if _, err := e.plays.CloseRound(e.ctx, org, tid, 1, play.AcceptUnconfirmed()); err != nil {
		t.Fatal(err)
	}
	t2 := r.Tables[1]
	open := func(game int, rec []byte) *referee.Dispute {
		d, err := refs.OpenDispute(e.ctx, org, tid, referee.NewDispute{Round: 1, Table: t2.Number, Game: game,
			Description: "sista sticket räknades fel", Record: rec, Deal: 1})
		if err != nil {
			t.Fatalf("open a dispute: %v", err)
		}
		return d
	}
	fixed := tournamenttest.SheetGame(rng, t2.Players, t2.FirstDealerOf(1))
	upheld := open(1, fixed)
	_, err := refs.Rule(e.ctx, org, tid, upheld.ID, referee.NewRuling{Decision: referee.DecisionUpheld,
		Reason: "protokollet var fel", Record: fixed,
		Adjustments: []referee.NewAdjustment{{Player: t2.Players[0], Points: -3, Reason: "sen ankomst"}}})
	if err != nil {
		t.Fatalf("rule upheld: %v", err)
	}
	rejected := open(2, nil)
	if _, err := refs.Rule(e.ctx, org, tid, rejected.ID, referee.NewRuling{Decision: referee.DecisionRejected,
		Reason: "räkningen stämde"}); err != nil {
		t.Fatalf("rule rejected: %v", err)
	}
	if _, err := refs.Reopen(e.ctx, org, tid, 1, 20, "en spelare kom tillbaka"); err != nil {
		t.Fatalf("reopen: %v", err)
	}
	open(3, nil)
	return tid, refs
}

// normalized is a history with the exporting server's result ids replaced
// by the rows' places in the file, which an import keeps.
func normalized(t *testing.T, h *transfer.ExportHistory) *transfer.ExportHistory {
	t.Helper()
	out := *h
	index := map[int64]int64{}
	out.Results = append([]transfer.ExportResultRow(nil), h.Results...)
	for i := range out.Results {
		index[out.Results[i].ID] = int64(i + 1)
	}
	at := func(id *int64) *int64 {
		if id == nil {
			return nil
		}
		n, ok := index[*id]
		if !ok {
			t.Fatalf("id %d is no result row of the history", *id)
		}
		return &n
	}
	for i := range out.Results {
		out.Results[i].ID, out.Results[i].Supersedes = *at(&out.Results[i].ID), at(out.Results[i].Supersedes)
	}
	out.Confirmations = append([]transfer.ExportConfirmation(nil), h.Confirmations...)
	for i := range out.Confirmations {
		out.Confirmations[i].Result = *at(&out.Confirmations[i].Result)
	}
	out.Disputes = append([]transfer.ExportDispute(nil), h.Disputes...)
	for i := range out.Disputes {
		out.Disputes[i].Result = at(out.Disputes[i].Result)
		if ru := out.Disputes[i].Ruling; ru != nil {
			c := *ru
			c.Correction = at(ru.Correction)
			out.Disputes[i].Ruling = &c
		}
	}
	return &out
}

// TestExportImportHistory (issue 13): an export carries the whole
// tournament (every result row with its corrections, table deals and
// their corrections, confirmations, disputes, rulings, adjustments,
// reopenings and the audit log), and an import into another database
// reproduces it: the same standings, the same history, the carried audit
// log first and the import's own entries after it.
func TestExportImportHistory(t *testing.T) {
	t.Parallel()
	racecheck.OutOfRace(t) // as TestExportImportRoundTrip: 27.4 s under -race on 7 December's fifth machine
	src := newEnv(t)
	tid, _ := historyTournament(t, src)
	ex, err := src.transfer().Export(src.ctx, org, tid)
	if err != nil {
		t.Fatal(err)
	}
	h := ex.History
	if h == nil || len(h.Deals) == 0 || len(h.DealCorrections) != 2 || len(h.Confirmations) != 1 || len(h.Disputes) != 3 ||
		len(h.Reopenings) != 1 || len(h.Audit) == 0 || len(h.Results) != len(ex.Results)+1 {
		t.Fatalf("the export's history lacks something: %d deals, %d deal corrections, %d confirmations, %d disputes, "+
			"%d reopenings, %d audit entries, %d result rows of %d effective", len(h.Deals), len(h.DealCorrections),
			len(h.Confirmations), len(h.Disputes), len(h.Reopenings), len(h.Audit), len(h.Results), len(ex.Results))
	}
	data, err := json.Marshal(ex)
	if err != nil {
		t.Fatal(err)
	}
	var file transfer.Export
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	dst := newEnv(t)
	created, err := dst.transfer().Import(dst.ctx, admin, &file)
	if err != nil {
		t.Fatalf("Import: %v", err)
	}
	nid := created.Tournament.ID
	_, want, _ := src.svc.Standings(src.ctx, tid)
	_, got, _ := dst.svc.Standings(dst.ctx, nid)
	for i := range want {
		want[i].Player.TournamentID = ""
	}
	for i := range got {
		got[i].Player.TournamentID = ""
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("standings after import differ:\ngot  %+v\nwant %+v", got, want)
	}
	again, err := dst.transfer().Export(dst.ctx, org, nid)
	if err != nil {
		t.Fatal(err)
	}
	carried := len(h.Audit)
	if len(again.History.Audit) <= carried {
		t.Fatalf("the imported audit log has %d entries, want the %d carried and the import's own", len(again.History.Audit), carried)
	}
	if !reflect.DeepEqual(again.History.Audit[:carried], h.Audit) {
		t.Errorf("the carried audit log differs after import")
	}
	for _, e := range again.History.Audit[carried:] {
		if e.Role != string(tournament.RoleAdmin) || e.Reason == "" {
			t.Errorf("an import's own audit entry = %+v, want the admin with the import as reason", e)
			break
		}
	}
	a, b := normalized(t, h), normalized(t, again.History)
	a.Audit, b.Audit = nil, nil
	if !reflect.DeepEqual(a, b) {
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		i := 0
		for i < len(ja) && i < len(jb) && ja[i] == jb[i] {
			i++
		}
		lo := max(i-300, 0)
		t.Errorf("history after import differs at byte %d:\ngot  …%.600s\nwant …%.600s", i, jb[lo:], ja[lo:])
	}
	if !reflect.DeepEqual(again.Results, ex.Results) {
		t.Errorf("effective results after import differ")
	}
	refs := referee.New(dst.svc, dst.plays, dst.referees)
	page, err := refs.Disputes(dst.ctx, org, nid, referee.DisputeFilter{})
	if err != nil || len(page.Disputes) != 3 || page.Disputes[0].Verdict == nil || page.Disputes[0].Ruling == nil ||
		page.Disputes[0].Ruling.Verdict == nil || len(page.Disputes[0].Ruling.Adjustments) != 1 {
		t.Errorf("the imported disputes: %v; want 3, the first with its verdict, ruling and adjustment", err)
	}
	_ = time.Second
}
