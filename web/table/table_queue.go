package table

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/web/sheet"
	"github.com/revisor-sm/revisor/web/site"
)

// The table page's side of the table protocol (docs/table-protocol.md):
// the deals the server holds, as the entry form's fields, so that a phone
// can tell a repeat from a conflict (static/tablequeue.js), and the stored
// deal of a conflict in the same words.

// recordFields is a stored deal as the entry form's fields: a score-sheet
// line as the players' fields ("s2_hand1": "6", "s3_last": "C15"), any
// other record as the paste box's text.
func recordFields(rec json.RawMessage, players []string) map[string]string {
	var parts map[string]json.RawMessage
	var lines map[string]map[string]int
	raw := map[string]string{"record": string(rec)}
	if json.Unmarshal(rec, &parts) != nil || len(parts) != 1 || json.Unmarshal(parts["sheet"], &lines) != nil || lines == nil {
		return raw
	}
	out := map[string]string{}
	for pid, line := range lines {
		seat := slices.Index(players, pid)
		if seat < 0 {
			return raw
		}
		for src, v := range line {
			col, ok := sheet.Column[src]
			if !ok {
				return raw
			}
			val := strconv.Itoa(v)
			if src == engine.SourceChicago {
				val = "C" + val
			}
			out[entryName(seat, sheet.Sources[col])] = val
		}
	}
	return out
}

// fieldsJSON is recordFields as the data-fields attribute of a deal's row.
func fieldsJSON(rec json.RawMessage, players []string) string {
	b, _ := json.Marshal(recordFields(rec, players))
	return string(b)
}

// presentDealers is who deals the game's deals from deal next on, in
// turn: the players still at the table, a player withdrawn during the
// game skipped (docs/tournaments.md), starting after the last deal's
// dealer.
func presentDealers(t tournament.Table, g, next int, short func(pid string) string) []string {
	first := max(0, slices.Index(t.Players, t.FirstDealerOf(g)))
	present := t.Present(g)
	var out []string
	for k := range len(t.Players) {
		pid := t.Players[(first+next-1+k)%len(t.Players)]
		if slices.Contains(present, pid) {
			out = append(out, short(pid))
		}
	}
	return out
}

// protocolAnswer adds to ans what the table protocol's refusals carry
// (docs/table-protocol.md): a deal_exists conflict the stored deal, as the
// entry form's fields, so that the phone shows both versions; a deal that
// scores a withdrawn player the player's name, in the reader's words.
func protocolAnswer(p *site.Page, ans tableAnswer, o tableOutcome, t tournament.Table) tableAnswer {
	if o.Code == tournament.CodeDealExists && len(o.Stored) > 0 {
		ans.Stored = recordFields(o.Stored, t.Players)
	}
	if o.Code == tournament.CodePlayerWithdrawn && o.Name != "" {
		ans.Messages = []sheet.TableMessage{{Text: p.T("tbl.e.player_withdrawn", o.Name)}}
	}
	return ans
}
