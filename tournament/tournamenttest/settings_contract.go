package tournamenttest

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
)

// settingsContract: UpdateSettings hands change the tournament as stored
// and stores the name and settings it returns (and nothing else); a
// refusal changes nothing; the service refuses bad values field by field
// and any change once round 1 is drawn.
func settingsContract(t *testing.T, st Store) {
	ctx := context.Background()
	svc := NewService(st)
	tid := mustCreate(t, svc, 8)
	before, err := st.Tournament(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	if before.Settings.CorrectionMinutes != tournament.DefaultCorrectionMinutes {
		t.Errorf("a new tournament's correction window = %d minutes, want %d", before.Settings.CorrectionMinutes, tournament.DefaultCorrectionMinutes)
	}
	refused := errors.New("refused")
	_, err = st.UpdateSettings(auditCtx(), tid, func(got *tournament.Tournament) (*tournament.Tournament, error) {
		if !reflect.DeepEqual(got, before) {
			t.Errorf("change got %+v, want the stored %+v", got, before)
		}
		out := *got
		out.Name = "not stored"
		return &out, refused
	})
	if !errors.Is(err, refused) {
		t.Fatalf("UpdateSettings with a refusing change = %v, want the refusal", err)
	}
	if got, _ := st.Tournament(ctx, tid); got.Name != before.Name {
		t.Errorf("after a refusal the name is %q, want %q", got.Name, before.Name)
	}

	name, games, minutes, zone, lang := "Contract, renamed", 2, 45, "Europe/Oslo", "nb"
	changed, err := svc.UpdateSettings(ctx, org, tid, tournament.SettingsChange{Name: &name, GamesPerRound: &games,
		PlacementPoints: []int{10, 6, 3, 0}, DayBreaks: []int{1}, Tiebreaks: []string{tournament.TiebreakGamesWon},
		CorrectionMinutes: &minutes, TimeZone: &zone, Language: &lang, Reason: "the club plays two games"})
	if err != nil {
		t.Fatal(err)
	}
	want := *before
	want.Name = name
	want.Settings.GamesPerRound, want.Settings.CorrectionMinutes, want.Settings.TimeZone, want.Settings.Language = games, minutes, zone, lang
	want.Settings.PlacementPoints, want.Settings.DayBreaks, want.Settings.Tiebreaks = []int{10, 6, 3, 0}, []int{1}, []string{tournament.TiebreakGamesWon}
	stored, _ := st.Tournament(ctx, tid)
	for what, got := range map[string]*tournament.Tournament{"returned": changed, "stored": stored} {
		if !reflect.DeepEqual(got, &want) {
			t.Errorf("%s after the change = %+v, want %+v", what, got, &want)
		}
	}

	bad, neg := 0, -1
	_, err = svc.UpdateSettings(ctx, org, tid, tournament.SettingsChange{GamesPerRound: &bad, CorrectionMinutes: &neg,
		PlacementPoints: []int{1, 2, 3, 4}})
	var te *tournament.Error
	if !errors.As(err, &te) || te.Code != tournament.CodeInvalidSettings {
		t.Fatalf("bad values = %v, want %s", err, tournament.CodeInvalidSettings)
	}
	var fields []string
	for _, p := range te.FieldProblems() {
		fields = append(fields, p.Field)
	}
	if w := []string{"games_per_round", "placement_points", "correction_minutes"}; !reflect.DeepEqual(fields, w) {
		t.Errorf("bad values name the fields %v, want %v", fields, w)
	}
	if got, _ := st.Tournament(ctx, tid); !reflect.DeepEqual(got, &want) {
		t.Errorf("bad values changed the tournament to %+v", got)
	}

	mustDraw(t, play.New(svc, st), tid)
	_, err = svc.UpdateSettings(ctx, org, tid, tournament.SettingsChange{Name: &name})
	if tournament.ErrorCode(err) != tournament.CodeSettingsLocked {
		t.Fatalf("a change after the draw = %v, want %s", err, tournament.CodeSettingsLocked)
	}
}
