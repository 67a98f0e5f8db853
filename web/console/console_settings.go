package console

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/web/site"
)

// settingsField is one setting on the console's settings page: its form
// name, label and hint keys, the value shown, and what is wrong with it
// (in words) after a refused save.
type settingsField struct {
	Name, Label, Hint string
	Kind              string // "text", "number" or "select"
	Value, Shown      string // the form's value; the value in words (read only)
	Options           []settingsOption
	Error             string
	Min, Max          int // for numbers
}

// settingsOption is one choice of a select.
type settingsOption struct {
	Value, Label, Lang string
}

// settingsData is the settings page: the form until round 1 is drawn,
// the settings read only after it.
type settingsData struct {
	Fields []settingsField
	Locked bool
	Saved  bool
	Error  string // the summary of a refused save
	Reason string
	// FormKey is the form's Idempotency-Key, fresh at each render (a
	// refused form comes back with another).
	FormKey string
}

// formFields maps the API's field names to the form's.
var formFields = map[string]string{"name": "name", "games_per_round": "games", "placement_points": "points",
	"tiebreaks": "tiebreaks", "advance_per_table": "advance", "day_breaks": "days", "final_games": "final_games",
	"rounds": "rounds", "correction_minutes": "correction", "time_zone": "time_zone", "language": "language", "reason": "reason"}

// settingsPage shows the tournament's settings: a form until round 1 is
// drawn, read only with the reason after.
func (h *Handler) settingsPage(c echo.Context) error {
	return h.renderSettings(c, http.StatusOK, nil, nil, c.QueryParam("saved") == "1")
}

// renderSettings renders the settings page; values are a refused form's
// values and bad its fields' problems in words (nil: the stored settings).
func (h *Handler) renderSettings(c echo.Context, status int, values, bad map[string]string, saved bool) error {
	p, st, err := h.TournamentPageStart(c, "set.title", "console")
	if err != nil {
		return h.Fail(c, err)
	}
	p.Organizer = true
	t := &st.Tournament
	p.Title = p.T("set.title") + ": " + t.Name
	d := settingsData{Saved: saved, Locked: tournament.SettingsOpen(t) != nil, Fields: settingsFields(p, t), FormKey: site.NewKey()}
	for i := range d.Fields {
		f := &d.Fields[i]
		if v, ok := values[f.Name]; ok {
			f.Value = v
		}
		f.Error = bad[f.Name]
	}
	if values != nil {
		d.Reason = values["reason"]
	}
	if len(bad) > 0 {
		d.Error = p.T("set.e.summary")
	}
	p.Data = d
	return h.Render(c, status, "console_settings", p)
}

// settingsFields are t's settings as the page shows them, in the order of
// the create form; sm's and the other formats' own fields only for them.
func settingsFields(p *site.Page, t *tournament.Tournament) []settingsField {
	s := t.Settings
	lang := p.T("a.Language.none")
	langs := []settingsOption{{Value: "", Label: lang}}
	for _, l := range p.Languages() {
		langs = append(langs, settingsOption{Value: l.Code, Label: l.Name, Lang: l.Code})
		if l.Code == s.Language {
			lang = l.Name
		}
	}
	withLot, noLot := tiebreakChoices(s.Tiebreaks)
	tbValue := "lot"
	if !s.Uses(tournament.TiebreakLot) {
		tbValue = "no_lot"
	}
	tbs := []settingsOption{{Value: "lot", Label: tiebreakWords(p, withLot, true)}, {Value: "no_lot", Label: tiebreakWords(p, noLot, false)}}
	fs := []settingsField{
		{Name: "name", Label: "a.name", Kind: "text", Value: t.Name},
		{Name: "games", Label: "a.games", Kind: "number", Value: strconv.Itoa(s.GamesPerRound), Min: 1, Max: 20},
		{Name: "points", Label: "a.points", Hint: "a.points_hint", Kind: "text", Value: joinInts(s.PlacementPoints)},
		{Name: "tiebreaks", Label: "a.tiebreaks", Kind: "select", Value: tbValue, Options: tbs},
	}
	if t.Format == tournament.FormatSM {
		final := ""
		if s.FinalGames > 0 {
			final = strconv.Itoa(s.FinalGames)
		}
		fs = append(fs,
			settingsField{Name: "advance", Label: "a.advance", Hint: "a.advance_hint", Kind: "text", Value: joinInts(s.AdvancePerTable)},
			settingsField{Name: "days", Label: "a.days", Hint: "a.days_hint", Kind: "text", Value: joinInts(s.DayBreaks)},
			settingsField{Name: "final_games", Label: "a.final_games", Kind: "number", Value: final, Min: 1, Max: 20})
	} else {
		fs = append(fs, settingsField{Name: "rounds", Label: "a.rounds", Kind: "number", Value: strconv.Itoa(s.Rounds), Min: 1, Max: 100})
	}
	fs = append(fs,
		settingsField{Name: "correction", Label: "a.correction", Hint: "a.correction_hint", Kind: "number",
			Value: strconv.Itoa(s.CorrectionMinutes), Min: 0, Max: 10080},
		settingsField{Name: "time_zone", Label: "a.time_zone", Hint: "a.time_zone_hint", Kind: "text", Value: s.TimeZone},
		settingsField{Name: "language", Label: "a.Language", Hint: "a.language_hint", Kind: "select", Value: s.Language, Options: langs, Shown: lang})
	for i := range fs {
		f := &fs[i]
		switch {
		case f.Shown != "":
		case f.Kind == "select":
			for _, o := range f.Options {
				if o.Value == f.Value {
					f.Shown = o.Label
				}
			}
		case f.Name == "correction":
			f.Shown = p.T("set.minutes", s.CorrectionMinutes)
		case f.Value == "":
			f.Shown = "–"
		default:
			f.Shown = f.Value
		}
	}
	return fs
}

// tiebreakChoices returns the tournament's tiebreaks ending in a lot, and
// the same without it (the organizer breaks what they leave).
func tiebreakChoices(tbs []string) (withLot, noLot []string) {
	noLot = slices.DeleteFunc(slices.Clone(tbs), func(tb string) bool { return tb == tournament.TiebreakLot })
	return append(slices.Clone(noLot), tournament.TiebreakLot), noLot
}

// tiebreakWords says a list of tiebreaks in words: "game points, games
// won, best game, then a lot".
func tiebreakWords(p *site.Page, tbs []string, lot bool) string {
	words := make([]string, 0, len(tbs))
	for _, tb := range tbs {
		if tb != tournament.TiebreakLot {
			words = append(words, p.T("tb."+tb))
		}
	}
	end := p.T("set.tb.organizer")
	if lot {
		end = p.T("set.tb.lot")
	}
	if len(words) == 0 {
		return end
	}
	return strings.Join(words, ", ") + "; " + end
}

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ", ")
}

// saveSettings takes the settings form: every field whose value is not a
// number where one is wanted, and every field the service refuses, is
// marked with its problem in words; nothing is saved until all are right.
func (h *Handler) saveSettings(c echo.Context) error {
	values := map[string]string{}
	for _, f := range formFields {
		values[f] = c.FormValue(f)
	}
	t, err := h.Deps().Tournaments.Tournament(c.Request().Context(), c.Param("tid"))
	if err != nil {
		return h.Fail(c, err)
	}
	lang := h.Language(c)
	bad := map[string]string{}
	ch := tournament.SettingsChange{Name: strPtr(values["name"]), TimeZone: strPtr(values["time_zone"]),
		Language: strPtr(values["language"]), Reason: values["reason"]}
	ch.GamesPerRound = formInt(values, "games", true, bad, lang)
	ch.CorrectionMinutes = formInt(values, "correction", true, bad, lang)
	ch.PlacementPoints = formInts(values, "points", bad, lang)
	if t.Format == tournament.FormatSM {
		ch.AdvancePerTable = formInts(values, "advance", bad, lang)
		ch.DayBreaks = formInts(values, "days", bad, lang)
		if ch.FinalGames = formInt(values, "final_games", false, bad, lang); ch.FinalGames == nil && len(bad) == 0 {
			ch.FinalGames = new(int) // empty: the final plays games_per_round
		}
	} else {
		ch.Rounds = formInt(values, "rounds", true, bad, lang)
	}
	withLot, noLot := tiebreakChoices(t.Settings.Tiebreaks)
	switch values["tiebreaks"] {
	case "lot":
		ch.Tiebreaks = withLot
	case "no_lot":
		ch.Tiebreaks = noLot
	default:
		bad["tiebreaks"] = site.Translate(lang, "set.e.tiebreaks")
	}
	if len(bad) > 0 { // what could be read is checked too, so that every field is marked at once
		for _, fp := range tournament.CheckSettings(t, ch) {
			if _, marked := bad[formFields[fp.Field]]; !marked {
				settingsProblemsInWords(tournament.InvalidField(fp.Field, "%s", fp.Message), bad, lang)
			}
		}
	} else {
		cmd := app.UpdateSettings{Actor: consoleActor(c), Tournament: t.ID, Change: ch}
		if cmd.Key, err = h.formKey(c); err == nil {
			_, err = h.commands.UpdateSettings(c.Request().Context(), cmd)
		}
		if err == nil {
			h.Invalidate(t.ID)
			return c.Redirect(http.StatusSeeOther, consoleURL(t.ID)+"/settings?saved=1")
		}
		if statusOfForm(err) == 0 {
			return h.Fail(c, err)
		}
		settingsProblemsInWords(err, bad, lang) // none when locked: the page says why, read only
		return h.renderSettings(c, statusOfForm(err), values, bad, false)
	}
	return h.renderSettings(c, http.StatusUnprocessableEntity, values, bad, false)
}

// settingsProblemsInWords marks in bad the form fields err names, each
// with its problem in words.
func settingsProblemsInWords(err error, bad map[string]string, lang string) {
	var te *tournament.Error
	if !errors.As(err, &te) {
		return
	}
	fields := te.FieldProblems()
	if te.Field() != "" {
		fields = append(fields, tournament.FieldProblem{Field: te.Field(), Message: te.Message})
	}
	for _, fp := range fields {
		name, ok := formFields[fp.Field]
		if !ok {
			name = "name" // a setting the form does not show: said at the top of the form
		}
		bad[name] = site.Translate(lang, "set.e."+name)
	}
}

func strPtr(s string) *string { return &s }

// formInt reads a whole number of the form's field name; empty is nil,
// and an error when required. A problem is marked in bad, in words.
func formInt(values map[string]string, name string, required bool, bad map[string]string, lang string) *int {
	s := strings.TrimSpace(values[name])
	if s == "" && !required {
		return nil
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		bad[name] = site.Translate(lang, "set.e."+name)
		return nil
	}
	return &v
}

// formInts reads a list of whole numbers ("2, 2, 1"); empty is an empty
// list. A problem is marked in bad, in words.
func formInts(values map[string]string, name string, bad map[string]string, lang string) []int {
	out, err := site.OptionalInts(values[name], name, nil)
	if err != nil {
		bad[name] = site.Translate(lang, "set.e."+name)
		return nil
	}
	if out == nil {
		out = []int{}
	}
	return out
}
