package web

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/web/site"
)

// adminData is the admin page's data.
type adminData struct {
	Error  string
	Field  string
	Values map[string]string
	// Format is the format whose form is shown: only its own fields, with
	// its defaults (createDefaults).
	Format  tournament.Format
	Formats []formatChoice
	// Profiles and Stops are the house rules' choices (house_rules.go).
	Profiles, Stops []string
	// List is the server's tournaments, private ones too.
	List *listView
	// FormKey is the create form's Idempotency-Key, fresh at each render.
	FormKey string
}

// formatChoice is one of the formats the create form offers, a link to
// that format's form.
type formatChoice struct {
	Format  tournament.Format
	Current bool
}

// createFormats are the formats in the order the create form offers them.
var createFormats = []tournament.Format{tournament.FormatSM, tournament.FormatSwiss, tournament.FormatBridge}

// createFormat reads the format a create form is for ("sm" when s names
// none), so that a mistyped ?format= shows the Chicago-SM form.
func createFormat(s string) tournament.Format {
	for _, f := range createFormats {
		if string(f) == s {
			return f
		}
	}
	return tournament.FormatSM
}

// Rounds a new cumulative tournament's form proposes: a Swiss evening of
// five rounds (16 players meet few twice, docs/tournaments.md), a bridge
// evening of four Chicagos (docs/bridge.md).
const (
	defaultSwissRounds  = 5
	defaultBridgeRounds = 4
)

// createDefaults are the values the create form of format f starts with:
// the fields f does not use are left out, so that nothing of the
// Chicago-SM (three games, two going on) reaches a bridge evening.
func createDefaults(f tournament.Format, lang string) map[string]string {
	v := map[string]string{"format": string(f), "language": lang, "public": "on",
		"correction": strconv.Itoa(tournament.DefaultCorrectionMinutes), "time_zone": tournament.DefaultTimeZone}
	switch f {
	case tournament.FormatSM:
		v["games"], v["advance"] = "3", "2"
		site.HouseRuleDefaults(v)
	case tournament.FormatSwiss:
		v["games"], v["rounds"] = "3", strconv.Itoa(defaultSwissRounds)
		site.HouseRuleDefaults(v)
	case tournament.FormatBridge:
		v["rounds"] = strconv.Itoa(defaultBridgeRounds)
	}
	return v
}

func formatChoices(f tournament.Format) []formatChoice {
	out := make([]formatChoice, len(createFormats))
	for i, g := range createFormats {
		out[i] = formatChoice{Format: g, Current: g == f}
	}
	return out
}

// createdData is shown once after a tournament is created.
type createdData struct {
	ID, Name, Token, ShortLink string
}

// requireAdmin reports whether the visitor's session is the admin's; a
// session token that is not counts as a wrong token (actor).
func (h *Handler) requireAdmin(c echo.Context) (bool, error) {
	a, err := h.Actor(c, "")
	return a.Role == tournament.RoleAdmin, err
}

// adminPage is the form that creates a tournament; it needs the admin's
// session.
func (h *Handler) adminPage(c echo.Context) error {
	if ok, err := h.requireAdmin(c); err != nil {
		return h.Fail(c, err)
	} else if !ok {
		return c.Redirect(http.StatusSeeOther, "/login?next=/admin")
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	p := h.NewPage(c, "a.title")
	list, err := h.tournamentList(c, p, tournament.Actor{Role: tournament.RoleAdmin}, "/admin")
	if err != nil {
		return h.Fail(c, err)
	}
	f := createFormat(c.QueryParam("format"))
	p.Data = adminData{Values: createDefaults(f, p.Lang), Format: f, Formats: formatChoices(f), List: list,
		Profiles: site.ProfileIDs(), Stops: site.ExchangeStops, FormKey: site.NewKey()}
	return h.Render(c, http.StatusOK, "admin", p)
}

// adminCreate creates a tournament and shows its organizer token: once per
// form key (app.Console.CreateTournament), so that the form sent twice
// creates one tournament and shows its token both times; the kept answer
// is sealed under the session's token (site.SealedFormKey).
func (h *Handler) adminCreate(c echo.Context) error {
	if ok, err := h.requireAdmin(c); err != nil {
		return h.Fail(c, err)
	} else if !ok {
		return h.Fail(c, tournament.Errorf(tournament.KindUnauthorized, tournament.CodeLoginRequired, "log in with the admin token first"))
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	values := map[string]string{"name": c.FormValue("name"), "format": c.FormValue("format"),
		"games": c.FormValue("games"), "rounds": c.FormValue("rounds"), "advance": c.FormValue("advance"),
		"days": c.FormValue("days"), "final_games": c.FormValue("final_games"), "language": c.FormValue("language"),
		"points": c.FormValue("points"), "tiebreaks": c.FormValue("tiebreaks"), "correction": c.FormValue("correction"),
		"time_zone": c.FormValue("time_zone"), "public": c.FormValue("public"), "venue": c.FormValue("venue"), "date": c.FormValue("date")}
	for _, k := range site.HouseRuleFields {
		values[k] = c.FormValue(k)
	}
	nt := tournament.NewTournament{Name: values["name"], Format: tournament.Format(values["format"]), Language: values["language"],
		TimeZone: strings.TrimSpace(values["time_zone"]), Listing: tournament.Listing{Public: values["public"] != "", Venue: values["venue"]}}
	var bad error
	nt.Listing.Date, bad = optionalDate(values["date"], "date", bad)
	if nt.Format != tournament.FormatBridge { // a bridge round is one Chicago a table: its form has no games
		nt.GamesPerRound, bad = optionalInt(values["games"], "games_per_round", bad)
	}
	nt.CorrectionMinutes, bad = optionalInt(values["correction"], "correction_minutes", bad)
	nt.PlacementPoints, bad = site.OptionalInts(values["points"], "placement_points", bad)
	// The tiebreaks: the default order, or the same without the lot, so
	// that a tie at an advancement line is the organizer's to break. A
	// bridge evening keeps its own (matches won, best round, a lot).
	if values["tiebreaks"] == "no_lot" && nt.Format != tournament.FormatBridge {
		nt.Tiebreaks = []string{tournament.TiebreakGamePoints, tournament.TiebreakGamesWon, tournament.TiebreakBestGame}
	}
	if nt.Format != tournament.FormatBridge && bad == nil { // a bridge evening's rules are its own (docs/bridge.md)
		nt.Rules, bad = site.HouseRulesFromForm(values)
	}
	if nt.Format == tournament.FormatSwiss || nt.Format == tournament.FormatBridge {
		nt.Rounds, bad = optionalInt(values["rounds"], "rounds", bad)
	} else {
		nt.AdvancePerTable, bad = site.OptionalInts(values["advance"], "advance_per_table", bad)
		nt.DayBreaks, bad = site.OptionalInts(values["days"], "day_breaks", bad)
		nt.FinalGames, bad = optionalInt(values["final_games"], "final_games", bad)
	}
	var created *app.TournamentCreated
	if bad == nil {
		cmd := app.CreateTournament{Actor: tournament.Actor{Role: tournament.RoleAdmin}, Tournament: nt}
		if cmd.Key, bad = h.SealedFormKey(c, "admin"); bad == nil {
			created, bad = h.admin.CreateTournament(c.Request().Context(), cmd)
		}
	}
	p := h.NewPage(c, "a.title")
	if bad != nil {
		if httpx.StatusOf(bad) >= 500 {
			return h.Fail(c, bad)
		}
		f := createFormat(values["format"])
		d := adminData{Error: site.ErrorText(p.Lang, bad), Values: values, Format: f, Formats: formatChoices(f),
			Profiles: site.ProfileIDs(), Stops: site.ExchangeStops, FormKey: site.NewKey()}
		d.Field = site.FieldOf(bad)
		p.Data = d
		return h.Render(c, httpx.StatusOf(bad), "admin", p)
	}
	p.Title = p.T("a.created")
	made := created.Result
	p.Data = createdData{ID: made.Tournament.ID, Name: made.Tournament.Name, Token: made.OrganizerToken,
		ShortLink: shortPath(made.Tournament.ShortCode)}
	return h.Render(c, http.StatusCreated, "created", p)
}

// optionalInt reads an optional whole number of a form; the first error
// is kept.
func optionalInt(s, field string, prev error) (*int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, prev
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		if prev == nil {
			prev = tournament.InvalidField(field, "%s", field+" must be a whole number")
		}
		return nil, prev
	}
	return &v, prev
}

// optionalDate reads an optional day (YYYY-MM-DD, as a date input sends
// it); the first error is kept.
func optionalDate(s, field string, prev error) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, prev
	}
	d, err := time.Parse(time.DateOnly, s)
	if err != nil && prev == nil {
		prev = tournament.InvalidField(field, "%s", field+" must be a day written 2026-12-31")
	}
	return d, prev
}
