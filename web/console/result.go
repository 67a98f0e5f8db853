package console

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/web/sheet"
	"github.com/revisor-sm/revisor/web/site"
)

// Result form limits: rows shown at first, added by "more rows", and at
// most.
const (
	resultRowsMin  = 12
	resultRowsStep = 6
	resultRowsMax  = 60
)

// formCell is one player's inputs in a deal row.
type formCell struct {
	Fields []sheet.FormField
}

// formRow is one deal row of the result form.
type formRow struct {
	Deal   int
	Dealer string
	Cells  []formCell
	Errors []string
}

// resultData is the result page's data.
type resultData struct {
	Round, Table, Game int
	Players            []string
	Dealer             string
	Rows               []formRow
	RowCount           int
	Columns            int    // of the grid: deal, dealer and four a player
	Caption            string // the grid's caption
	Ended              bool
	Record             string
	RecordErrors       []string
	Errors             []string
	Stored             *sheet.StoredResult
	// Bridge is the form of a bridge table's match, in place of Rows;
	// Match tells that the game is a bridge match, whose points are its
	// score (no placement points to show).
	Bridge *bridgeForm
	Match  bool
	ids    []string // the players' IDs in seat order
	// The dispute form's error, the field it concerns and its values.
	DisputeError, DisputeField string
	DisputeValues              map[string]string
	// DisputeDeals are the stored game's deals, by number with their
	// dealer, for the dispute form to name the disputed one.
	DisputeDeals []formRow
	// FormKey is the dispute form's Idempotency-Key (a fresh one at each
	// render).
	FormKey string
}

// gameForm locates the game of a result page and builds its empty form.
func (h *Handler) gameForm(c echo.Context) (*site.Page, *tournament.State, tournament.Table, *resultData, error) {
	p, st, err := h.TournamentPageStart(c, "c.title", "console")
	if err != nil {
		return nil, nil, tournament.Table{}, nil, err
	}
	n, _ := strconv.Atoi(c.Param("n"))
	tn, _ := strconv.Atoi(c.Param("t"))
	g, _ := strconv.Atoi(c.Param("g"))
	r := site.RoundOf(st, n)
	if n < 1 || r == nil {
		return nil, nil, tournament.Table{}, nil, tournament.RoundParamNotFound(c.Param("n"))
	}
	t, ok := r.Table(tn)
	if !ok || g < 1 || g > st.Tournament.Settings.GamesPerRound {
		return nil, nil, tournament.Table{}, nil, tournament.Errorf(tournament.KindNotFound, tournament.CodeGameNotFound, "no game %q at table %q", c.Param("g"), c.Param("t"))
	}
	names := site.PlayerIndex(st)
	d := &resultData{Round: n, Table: tn, Game: g, Dealer: names[t.FirstDealerOf(g)].Name, ids: t.Players,
		Columns: 2 + len(sheet.Sources)*len(t.Players), Match: st.Tournament.Format == tournament.FormatBridge,
		FormKey: site.NewKey()}
	for _, pid := range t.Players {
		d.Players = append(d.Players, names[pid].Name)
	}
	for _, res := range st.Results {
		if res.Key.Round == n && res.Key.Table == tn && res.Key.Game == g {
			// The snapshot holds places only; read the table's whole results.
			full, err := h.Deps().Tournaments.TableResults(c.Request().Context(), st.Tournament.ID, n, tn)
			if err != nil {
				return nil, nil, tournament.Table{}, nil, err
			}
			for _, fr := range full {
				if fr.Key.Game == g {
					d.Stored = sheet.Stored(p, fr, names)
					var gr engine.GameResult
					_ = json.Unmarshal(fr.Result, &gr)
					d.DisputeDeals = formRows(p, st, t, g, len(gr.Deals), nil)
					if d.Match {
						d.DisputeDeals = storedBridgeDeals(st, t, fr.Record)
					}
				}
			}
		}
	}
	p.Title = p.T("r.title", n, tn, g)
	d.Caption = p.Title
	p.Organizer = true
	return p, st, t, d, nil
}

// resultPage shows the score-sheet form of a game, or its accepted result.
func (h *Handler) resultPage(c echo.Context) error {
	p, st, t, d, err := h.gameForm(c)
	if err != nil {
		return h.Fail(c, err)
	}
	fillForm(p, st, t, d, 0, nil)
	p.Data = d
	return h.Render(c, http.StatusOK, "result", p)
}

// fillForm builds the form of d's game with rows rows (at least the
// form's first count), filled with values: a bridge table's deals, or the
// card game's score-sheet grid.
func fillForm(p *site.Page, st *tournament.State, t tournament.Table, d *resultData, rows int, values func(string) string) {
	if st.Tournament.Format == tournament.FormatBridge {
		d.RowCount = min(max(rows, bridgeRowCount(st, t)), resultRowsMax)
		d.Bridge = newBridgeForm(st, t, d.RowCount, values)
		return
	}
	d.RowCount = min(max(rows, resultRowsMin), resultRowsMax)
	d.Rows = formRows(p, st, t, d.Game, d.RowCount, values)
}

// formRows builds rows empty grid rows, filled with values.
func formRows(p *site.Page, st *tournament.State, t tournament.Table, g, rows int, values func(string) string) []formRow {
	names := site.PlayerIndex(st)
	first := 0
	for i, pid := range t.Players {
		if pid == t.FirstDealerOf(g) {
			first = i
		}
	}
	out := make([]formRow, rows)
	for k := range out {
		row := formRow{Deal: k + 1, Dealer: names[t.Players[(first+k)%len(t.Players)]].Name}
		for i, pid := range t.Players {
			cell := formCell{}
			for j, src := range sheet.Sources {
				f := sheet.FormField{Name: fieldName(k, i, src),
					Label: fmt.Sprintf("%s %d, %s, %s", p.T("sheet.deal"), k+1, names[pid].Name, p.T(sheet.SourceLabel[j]))}
				if values != nil {
					f.Value = strings.TrimSpace(values(f.Name))
				}
				cell.Fields = append(cell.Fields, f)
			}
			row.Cells = append(row.Cells, cell)
		}
		out[k] = row
	}
	return out
}

func fieldName(deal, seat int, src string) string { return fmt.Sprintf("d%d_s%d_%s", deal, seat, src) }

// submitResult turns the score-sheet form (or a pasted record) into a game
// record and submits it like the API does; the engine's errors are shown
// next to the rows and fields they concern.
func (h *Handler) submitResult(c echo.Context) error {
	p, st, t, d, err := h.gameForm(c)
	if err != nil {
		return h.Fail(c, err)
	}
	rows, _ := strconv.Atoi(c.FormValue("rows"))
	if c.FormValue("more") != "" {
		rows += resultRowsStep
	}
	d.Ended = c.FormValue("ended") != ""
	fillForm(p, st, t, d, rows, c.FormValue)
	d.Record = strings.TrimSpace(c.FormValue("record"))
	p.Data = d
	if c.FormValue("more") != "" {
		return h.Render(c, http.StatusOK, "result", p)
	}
	var data []byte
	var dealRows []int
	switch {
	case d.Record != "":
		data = []byte(d.Record)
	case d.Bridge != nil:
		if data, dealRows = buildBridgeRecord(p, t, d.Bridge, d.Ended); data == nil {
			return h.Render(c, http.StatusUnprocessableEntity, "result", p)
		}
	default:
		data, dealRows = buildRecord(t, d, sheet.LastTrickPoints(st.Tournament.Settings.Rules), p)
		if data == nil {
			return h.Render(c, http.StatusUnprocessableEntity, "result", p)
		}
	}
	key := tournament.GameKey{TournamentID: st.Tournament.ID, Round: d.Round, Table: d.Table, Game: d.Game}
	if _, err := h.Deps().Table.SubmitGame(c.Request().Context(), app.SubmitGame{Actor: consoleActor(c), Game: key, Record: data}); err != nil {
		if s := httpx.StatusOf(err); s >= 500 || s == http.StatusNotFound || s == http.StatusForbidden || s == http.StatusUnauthorized {
			return h.Fail(c, err)
		}
		if d.Bridge != nil && d.Record == "" {
			d.Errors = placeBridgeErrors(p, d.Bridge, err, dealRows)
		} else {
			placeErrors(p, d, err, dealRows, t, site.PlayerIndex(st))
		}
		return h.Render(c, httpx.StatusOf(err), "result", p)
	}
	h.Invalidate(st.Tournament.ID)
	return c.Redirect(http.StatusSeeOther, consoleURL(st.Tournament.ID)+"?saved=1#round")
}

// buildRecord makes the game record of the form's rows, skipping empty
// rows; it returns the form row of each deal. Fields that are not numbers
// are marked and nil is returned.
func buildRecord(t tournament.Table, d *resultData, lastTrick int, p *site.Page) ([]byte, []int) {
	var deals []map[string]any
	var dealRows []int
	bad := false
	for k := range d.Rows {
		row := &d.Rows[k]
		line := map[string]map[string]int{}
		for i, cell := range row.Cells {
			for j := range cell.Fields {
				f := &row.Cells[i].Fields[j]
				if f.Value == "" {
					continue
				}
				src, v, ok := sheet.ParseValue(sheet.Sources[j], f.Value, lastTrick)
				if !ok {
					f.Bad, bad = true, true
					row.Errors = append(row.Errors, f.Label+": "+p.T("r.bad"))
					continue
				}
				if line[t.Players[i]] == nil {
					line[t.Players[i]] = map[string]int{}
				}
				line[t.Players[i]][src] = v
			}
		}
		if len(line) > 0 {
			deals = append(deals, map[string]any{"sheet": line})
			dealRows = append(dealRows, k)
		}
	}
	if bad {
		return nil, nil
	}
	rec := map[string]any{"players": t.Players, "first_dealer": t.FirstDealerOf(d.Game), "deals": deals}
	if deals == nil {
		rec["deals"] = []any{}
	}
	if d.Ended {
		rec["ended_by"] = "time"
	}
	b, _ := json.Marshal(rec)
	return b, dealRows
}

// placeErrors puts the submission's errors next to the rows, fields or the
// record they concern, in the table page's words (players by name, the
// sheet's columns); the rest above the form.
func placeErrors(p *site.Page, d *resultData, err error, dealRows []int, t tournament.Table, names map[string]tournament.Player) {
	var te *tournament.Error
	var problems []engine.Problem
	if errors.As(err, &te) {
		problems = te.Problems()
	}
	if d.Record != "" || len(problems) == 0 {
		msgs := []string{site.ErrorText(p.Lang, err)}
		if d.Record != "" {
			for _, pr := range problems {
				_, _, text := sheet.ProblemWords(p, pr.Code, pr.At, t, names)
				msgs = append(msgs, text+" ("+pr.Path+")")
			}
			d.RecordErrors = msgs
			return
		}
		d.Errors = msgs
		return
	}
	for _, pr := range problems {
		seat, col, text := sheet.ProblemWords(p, pr.Code, pr.At, t, names)
		if pr.At.Deal < 1 || pr.At.Deal > len(dealRows) {
			d.Errors = append(d.Errors, text)
			continue
		}
		row := &d.Rows[dealRows[pr.At.Deal-1]]
		row.Errors = append(row.Errors, text)
		if col >= 0 && seat < len(row.Cells) {
			row.Cells[seat].Fields[col].Bad = true
		}
	}
}
