package web_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
)

// settingsForm is a whole settings form as the page sends it.
func settingsForm(over map[string]string) url.Values {
	v := url.Values{"name": {"Höstturneringen"}, "games": {"2"}, "points": {"10, 6, 3, 1"}, "tiebreaks": {"no_lot"},
		"advance": {"2, 1"}, "days": {"1"}, "final_games": {""}, "correction": {"45"}, "time_zone": {"Europe/Oslo"},
		"language": {"sv"}, "reason": {"beslutat på klubbmötet"}}
	for k, x := range over {
		v.Set(k, x)
	}
	return v
}

// TestConsoleSettingsForm (issue 14, item 2), without JavaScript: the
// create form sets the correction window and the time zone; the console's
// settings page shows them prefilled, marks every bad field at once in
// words, saves a good form with its reason, refuses a visitor, and after
// the draw shows the settings read only with the reason.
func TestConsoleSettingsForm(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	a := s.browser(t)
	id, token := createByForm(t, a, url.Values{"name": {"Höstturneringen"}, "format": {"sm"}, "correction": {"15"}, "time_zone": {"Europe/Oslo"}})
	ctx := context.Background()
	tt, err := s.svc.Tournament(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if tt.Settings.CorrectionMinutes != 15 || tt.Settings.TimeZone != "Europe/Oslo" {
		t.Errorf("created with 15 minutes in Oslo: got %d minutes in %s", tt.Settings.CorrectionMinutes, tt.Settings.TimeZone)
	}
	page := "/t/" + id + "/console/settings"
	anon := s.browser(t)
	if r := anon.get(page); r.Status != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
		t.Errorf("settings page without a login = %d to %q, want 303 to /login", r.Status, r.Header.Get("Location"))
	}
	o := s.browser(t)
	o.lang = "sv"
	o.login(token)
	r := o.mustGet(page, http.StatusOK)
	checkPage(t, "settings", r)
	for _, want := range []string{`id="correction" name="correction" value="15"`, `id="time_zone" name="time_zone" value="Europe/Oslo"`,
		`id="points" name="points" value="20, 12, 8, 5"`, `<option value="lot" selected>spelpoäng, vunna partier, bästa parti; sedan lottning</option>`} {
		if !strings.Contains(r.Body, want) {
			t.Errorf("settings page lacks %s", want)
		}
	}

	bad := o.post(page, page, settingsForm(map[string]string{"games": "tre", "points": "5, 8, 3, 1", "time_zone": "Mars/Olympus"}))
	if bad.Status != http.StatusUnprocessableEntity {
		t.Errorf("bad values = %d, want 422", bad.Status)
	}
	checkPage(t, "settings with errors", bad)
	for _, want := range []string{
		`id="games" name="games" value="tre" inputmode="numeric" min="1" max="20" aria-invalid="true" aria-describedby="games-error">`,
		`<p class="field-error" id="games-error">Skriv antalet partier, från 1 till 20.</p>`,
		`id="points-error">Skriv fyra poäng`, `id="time_zone-error">Skriv en tidszon`, `value="beslutat på klubbmötet"`,
	} {
		if !strings.Contains(bad.Body, want) {
			t.Errorf("settings with bad values lack %s", want)
		}
	}
	if strings.Contains(bad.Body, "games_per_round") || strings.Contains(bad.Body, "placement_points") {
		t.Errorf("settings errors name fields as the API does, not in words")
	}
	if got, _ := s.svc.Tournament(ctx, id); got.Settings.CorrectionMinutes != 15 {
		t.Errorf("a refused form changed the correction window to %d", got.Settings.CorrectionMinutes)
	}

	if r := anon.post("/login", page, settingsForm(nil)); r.Status != http.StatusUnauthorized {
		t.Errorf("settings form without a login = %d, want 401", r.Status)
	}
	other := s.mustTournament(t, tournament.FormatSM, 0, false)
	wrong := s.browser(t)
	wrong.login(other.Token)
	if r := wrong.post("/t/"+other.ID+"/console/settings", page, settingsForm(nil)); r.Status != http.StatusUnauthorized {
		t.Errorf("another tournament's organizer sending the form = %d, want 401", r.Status)
	}
	if r := o.do(http.MethodPost, page, settingsForm(nil)); r.Status != http.StatusForbidden {
		t.Errorf("settings form without the CSRF token = %d, want 403", r.Status)
	}
	if got, _ := s.svc.Tournament(ctx, id); got.Settings.CorrectionMinutes != 15 {
		t.Errorf("a refused form changed the correction window to %d", got.Settings.CorrectionMinutes)
	}

	r = o.post(page, page, settingsForm(nil))
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != page+"?saved=1" {
		t.Fatalf("good form = %d to %q, want 303 to the page saved\n%s", r.Status, r.Header.Get("Location"), r.Body)
	}
	got, _ := s.svc.Tournament(ctx, id)
	st := got.Settings
	if st.GamesPerRound != 2 || !slices.Equal(st.PlacementPoints, []int{10, 6, 3, 1}) || st.Uses(tournament.TiebreakLot) ||
		!slices.Equal(st.AdvancePerTable, []int{2, 1}) || !slices.Equal(st.DayBreaks, []int{1}) || st.CorrectionMinutes != 45 ||
		st.Language != "sv" || st.FinalGames != 0 {
		t.Errorf("settings after the form = %+v", st)
	}

	if _, err := s.svc.AddPlayers(ctx, org, id, []tournament.NewPlayer{{Name: "Anna"}, {Name: "Bo"}, {Name: "Cia"}, {Name: "Dag"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.plays.DrawRound(ctx, org, id, nil); err != nil {
		t.Fatal(err)
	}
	// The draw is the service's, not the page's: the page shows it once
	// its event reaches the pages' cache (getUntil).
	r = o.getUntil(page, http.StatusOK, func(body string) bool { return strings.Contains(body, `id="settings-locked"`) })
	if !strings.Contains(r.Body, `id="settings-locked"`) || !strings.Contains(r.Body, "rond 1 är lottad") ||
		strings.Contains(r.Body, `<form method="post" action="`+page+`"`) || !strings.Contains(r.Body, `<dd id="view-correction">45 minuter</dd>`) {
		t.Errorf("settings after the draw are not read only with the reason:\n%s", r.Body)
	}
	late := o.post("/t/"+id+"/console", page, settingsForm(map[string]string{"games": "4"}))
	if late.Status != http.StatusConflict || !strings.Contains(late.Body, "rond 1 är lottad") {
		t.Errorf("a form sent after the draw = %d, want 409 saying round 1 is drawn", late.Status)
	}
	if got, _ := s.svc.Tournament(ctx, id); got.Settings.GamesPerRound != 2 {
		t.Errorf("a form after the draw changed games to %d", got.Settings.GamesPerRound)
	}
}
