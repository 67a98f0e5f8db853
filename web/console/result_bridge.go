// The console's result form of a bridge table: the match written deal by
// deal as the table page enters it (contract, declarer, tricks, or passed
// out), one row a deal, read by the table page's bridge entry. The same
// rows are the referee's correction of a disputed bridge result.
package console

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/revisor-sm/revisor/engine/bridge"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/web/sheet"
	"github.com/revisor-sm/revisor/web/site"
)

// bridgeChoices are the choices of a row, by the name the table page's
// entry form gives them.
var bridgeChoices = []string{"level", "strain", "double", "declarer", "tricks"}

// bridgeForm is the bridge result form: its rows and the choices offered.
type bridgeForm struct {
	Rows      []bridgeFormRow
	Declarers []sheet.TablePlayer
	Strains   []sheet.Strain
}

// bridgeFormRow is one deal of the form: its choices with their values and
// the messages about it.
type bridgeFormRow struct {
	Deal   int
	Dealer string
	Values map[string]string // by choice
	Bad    map[string]bool   // choices refused
	Errors []string
}

// Name is a choice's form field name in this row: "b2_tricks".
func (r bridgeFormRow) Name(choice string) string { return bridgeFieldName(r.Deal-1, choice) }

func bridgeFieldName(row int, choice string) string { return fmt.Sprintf("b%d_%s", row, choice) }

// bridgeRowCount is the rows a bridge table's form starts with: its score
// sheet's deals and two for deals passed out.
func bridgeRowCount(st *tournament.State, t tournament.Table) int {
	return len(play.BridgeSheet(st.Tournament.Settings, t)) + 2
}

// newBridgeForm builds the form's rows, filled with values (by field
// name); a deal passed out at a table of four is dealt again by the same
// dealer, so the next row names the same dealer.
func newBridgeForm(st *tournament.State, t tournament.Table, rows int, values func(string) string) *bridgeForm {
	names := site.PlayerIndex(st)
	f := &bridgeForm{Strains: sheet.BridgeStrains}
	for i, pid := range t.Players {
		f.Declarers = append(f.Declarers, sheet.TablePlayer{Seat: i + 1, ID: pid, Name: names[pid].Name})
	}
	dealer := max(slices.Index(t.Players, t.FirstDealer), 0)
	for k := range rows {
		row := bridgeFormRow{Deal: k + 1, Dealer: names[t.Players[dealer]].Name, Values: map[string]string{}, Bad: map[string]bool{}}
		for _, ch := range bridgeChoices {
			if values != nil {
				row.Values[ch] = strings.TrimSpace(values(bridgeFieldName(k, ch)))
			}
		}
		f.Rows = append(f.Rows, row)
		if row.Values["level"] != "pass" || len(t.Players) != 4 {
			dealer = (dealer + 1) % len(t.Players)
		}
	}
	return f
}

// empty tells whether a row has no choice made.
func (r bridgeFormRow) empty() bool {
	for _, v := range r.Values {
		if v != "" {
			return false
		}
	}
	return true
}

// buildBridgeRecord makes the match record of the form's rows, skipping
// empty rows, as the table page would have entered them deal by deal; it
// returns the form row of each deal. Rows with choices missing or not
// possible get their messages and nil is returned.
func buildBridgeRecord(p *site.Page, t tournament.Table, f *bridgeForm, ended bool) ([]byte, []int) {
	rec := bridge.Record{Game: bridge.GameChicago, Players: t.Players, FirstDealer: t.FirstDealer, EndedByTime: ended}
	if len(t.Players) == 2 {
		rec.Game = bridge.GameDraw
	}
	var dealRows []int
	bad := false
	dealer := max(slices.Index(t.Players, t.FirstDealer), 0)
	for k := range f.Rows {
		row := &f.Rows[k]
		if row.empty() {
			continue
		}
		body, msgs := sheet.BridgeEntryOf(func(ch string) string { return row.Values[ch] }, p, t)
		if msgs != nil {
			for _, m := range msgs {
				row.Errors = append(row.Errors, m.Text)
				row.Bad[m.Field] = true
			}
			bad = true
			continue
		}
		e, _, _, err := bridge.DecodeEntry(body)
		deal, probs := bridge.EntryDeal(e, t.Players, dealer)
		if err != nil || probs != nil { // sheet.BridgeEntryOf has checked the choices
			row.Errors, bad = append(row.Errors, p.T("r.bad")), true
			continue
		}
		rec.Deals = append(rec.Deals, deal)
		dealRows = append(dealRows, k)
		if !e.PassedOut || len(t.Players) != 4 {
			dealer = (dealer + 1) % len(t.Players)
		}
	}
	if bad {
		return nil, nil
	}
	return rec.AppendJSON(nil), dealRows
}

// placeBridgeErrors puts the engine's refusal of a match above the form
// in the reader's words, and marks the rows of the deals it names.
func placeBridgeErrors(p *site.Page, f *bridgeForm, err error, dealRows []int) []string {
	msgs := []string{site.ErrorText(p.Lang, err)}
	for _, pr := range problemsOf(err) {
		n := pr.At.Deal
		if n == 0 {
			if rest, ok := strings.CutPrefix(pr.Path, "/deals/"); ok {
				i, _ := strconv.Atoi(strings.SplitN(rest, "/", 2)[0])
				n = i + 1
			}
		}
		if n >= 1 && n <= len(dealRows) {
			row := &f.Rows[dealRows[n-1]]
			if len(row.Errors) == 0 {
				row.Errors = append(row.Errors, p.T("r.b.deal"))
			}
		}
	}
	return msgs
}

// storedBridgeValues reads a stored match record as the form's values by
// field name, and how many deals it has.
func storedBridgeValues(record json.RawMessage) (map[string]string, bool, int) {
	vals := map[string]string{}
	rec, err := bridge.Decode(record)
	if err != nil {
		return vals, false, 0
	}
	res := bridge.Check(rec)
	for k, d := range res.Deals {
		if d.PassedOut {
			vals[bridgeFieldName(k, "level")] = "pass"
			continue
		}
		level, strainCode, dbl := contractChoices(d.Contract)
		vals[bridgeFieldName(k, "level")] = level
		vals[bridgeFieldName(k, "strain")] = strainCode
		vals[bridgeFieldName(k, "double")] = dbl
		vals[bridgeFieldName(k, "declarer")] = d.Declarer
		vals[bridgeFieldName(k, "tricks")] = strconv.Itoa(d.Tricks)
	}
	return vals, rec.EndedByTime, len(res.Deals)
}

// storedBridgeDeals are a stored match's deals by number with their
// dealers, a deal passed out dealt again by the same dealer, for the
// dispute form to name the disputed one.
func storedBridgeDeals(st *tournament.State, t tournament.Table, record json.RawMessage) []formRow {
	vals, _, n := storedBridgeValues(record)
	f := newBridgeForm(st, t, n, func(name string) string { return vals[name] })
	out := make([]formRow, len(f.Rows))
	for k, r := range f.Rows {
		out[k] = formRow{Deal: r.Deal, Dealer: r.Dealer}
	}
	return out
}

// contractChoices splits a contract into the form's level, strain and
// double: "4SX" is "4", "S", "X".
func contractChoices(c bridge.Contract) (level, strainCode, dbl string) {
	s := c.String()
	level, rest := s[:1], s[1:]
	for strings.HasSuffix(rest, "X") {
		dbl, rest = dbl+"X", strings.TrimSuffix(rest, "X")
	}
	return level, rest, dbl
}
