package tournament

import (
	"slices"
	"testing"
)

func TestAdvanceSchedule(t *testing.T) {
	t.Parallel()
	s := Settings{AdvancePerTable: []int{2, 2, 1}}
	for n, want := range map[int]int{1: 2, 2: 2, 3: 1, 4: 1, 9: 1} {
		if got := s.AdvanceIn(n); got != want {
			t.Errorf("AdvanceIn(%d) with [2 2 1] = %d, want %d", n, got, want)
		}
	}
	if got := (Settings{AdvancePerTable: []int{1}}).AdvanceIn(5); got != 1 {
		t.Errorf("AdvanceIn(5) with [1] = %d, want 1", got)
	}
}

func TestDays(t *testing.T) {
	t.Parallel()
	s := Settings{DayBreaks: []int{2, 4}}
	for n, want := range map[int][2]int{1: {1, 1}, 2: {1, 1}, 3: {2, 3}, 4: {2, 3}, 5: {3, 5}, 8: {3, 5}} {
		if day, first := s.DayOf(n), s.FirstRoundOfDay(n); day != want[0] || first != want[1] {
			t.Errorf("round %d: DayOf = %d, FirstRoundOfDay = %d, want %d and %d", n, day, first, want[0], want[1])
		}
	}
	if got := (Settings{}).DayOf(7); got != 1 {
		t.Errorf("DayOf(7) without day breaks = %d, want 1", got)
	}
}

func TestFinalGames(t *testing.T) {
	t.Parallel()
	s := Settings{GamesPerRound: 3, FinalGames: 5}
	if s.GamesIn(false) != 3 || s.GamesIn(true) != 5 {
		t.Errorf("GamesIn(false, true) = %d, %d, want 3, 5", s.GamesIn(false), s.GamesIn(true))
	}
	if s.FinalGames = 0; s.GamesIn(true) != 3 {
		t.Errorf("GamesIn(true) without final_games = %d, want games_per_round 3", s.GamesIn(true))
	}
}

func TestSMSettingsValidation(t *testing.T) {
	t.Parallel()
	ok := []NewTournament{
		{Name: "SM", Format: FormatSM},
		{Name: "SM", Format: FormatSM, AdvancePerTable: []int{2, 2, 1}, DayBreaks: []int{2}},
		{Name: "SM", Format: FormatSM, AdvancePerTable: []int{1}, FinalGames: ptr(5)},
		{Name: "SM", Format: FormatSM, Language: "nb"},
		{Name: "SM", Format: FormatSM, Language: ""},
	}
	for _, n := range ok {
		if _, err := n.Settings(); err != nil {
			t.Errorf("settings(%+v) = %v, want no error", n, err)
		}
	}
	bad := []struct {
		n     NewTournament
		field string
	}{
		{NewTournament{Name: "SM", Format: FormatSM, AdvancePerTable: []int{2, 3}}, "advance_per_table"},
		{NewTournament{Name: "SM", Format: FormatSM, AdvancePerTable: []int{0}}, "advance_per_table"},
		{NewTournament{Name: "SM", Format: FormatSM, DayBreaks: []int{3, 2}}, "day_breaks"},
		{NewTournament{Name: "SM", Format: FormatSM, DayBreaks: []int{0}}, "day_breaks"},
		{NewTournament{Name: "SM", Format: FormatSM, DayBreaks: []int{2, 2}}, "day_breaks"},
		{NewTournament{Name: "SM", Format: FormatSM, FinalGames: ptr(21)}, "final_games"},
		{NewTournament{Name: "SM", Format: FormatSM, Language: "de"}, "language"},
		{NewTournament{Name: "SM", Format: FormatSM, Language: "no"}, "language"},
		{NewTournament{Name: "SM", Format: FormatSM, Language: "SV"}, "language"},
	}
	for _, b := range bad {
		_, err := b.n.Settings()
		if f := fieldOfErr(err); f != b.field {
			t.Errorf("settings(%+v) = %v (field %q), want an error naming %q", b.n, err, f, b.field)
		}
	}
	s, _ := NewTournament{Name: "SM", Format: FormatSM}.Settings()
	if !slices.Equal(s.AdvancePerTable, []int{2}) || s.DayBreaks == nil || s.GamesIn(true) != 3 {
		t.Errorf("defaults = %+v, want advance [2], no day breaks, final games = games per round", s)
	}
}

func ptr(n int) *int { return &n }

func fieldOfErr(err error) string {
	te, ok := err.(*Error)
	if !ok {
		return ""
	}
	return te.Field()
}

// TestAdvanceQuota: the SM's quota of each round, one from its final, and
// none in the formats that eliminate nobody.
func TestAdvanceQuota(t *testing.T) {
	t.Parallel()
	sm := &Tournament{Format: FormatSM, Settings: Settings{AdvancePerTable: []int{2, 1}}}
	for _, tc := range []struct {
		t    *Tournament
		r    Round
		want int
	}{
		{sm, Round{Number: 1}, 2},
		{sm, Round{Number: 3}, 1},
		{sm, Round{Number: 4, Final: true}, 1},
		{&Tournament{Format: FormatSwiss, Settings: sm.Settings}, Round{Number: 1}, 0},
	} {
		if got := tc.t.AdvanceQuota(&tc.r); got != tc.want {
			t.Errorf("%s round %d (final %v): quota %d, want %d", tc.t.Format, tc.r.Number, tc.r.Final, got, tc.want)
		}
	}
}
