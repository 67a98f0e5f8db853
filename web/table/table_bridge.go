package table

import (
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/engine/bridge"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/web/sheet"
	"github.com/revisor-sm/revisor/web/site"
)

// At a bridge_chicago table the page enters the match deal by deal as a
// bridge score sheet is written: the contract, the declarer and the
// tricks the declarer's side took (or the deal passed out), each deal's
// dealer and vulnerability shown, and the running score of each side. The
// API's entry is {"contract": "4SX", "declarer": id, "tricks": 9}.

// bridgeMatch is a bridge table's match as the table page shows it.
type bridgeMatch struct {
	// Sides names the sides: "Anna & Cecilia" (seats 1 and 3, N–S) and
	// "Bertil & David", or the two players of draw bridge.
	Sides  [2]string
	Labels [2]string // "N–S" and "E–W", or the players' short names
	Draw   bool
	Deals  []bridgeLine
	Totals [2]int
	// NextVul is the vulnerability of the deal to enter.
	NextVul string
	// Skipped counts the deals passed out: the next deal's number in the
	// Chicago is the number of stored deals less these, plus one.
	Skipped    int
	NextNumber int
	Declarers  []sheet.TablePlayer
	Strains    []sheet.Strain
}

// bridgeLine is one stored deal of a match.
type bridgeLine struct {
	Deal     int // the deal's place among the sheet.Stored deals (1-based)
	Number   int // its number in the Chicago (1-4); 0 when passed out
	Dealer   string
	Vul      string
	Contract string // "4♠X"; "" when passed out
	Declarer string
	Tricks   int
	Points   [2]int
	Totals   [2]int
}

// contractText spells a contract with suit signs: "4SX" as "4♠X".
func contractText(c bridge.Contract) string {
	s := c.String()
	for _, st := range sheet.BridgeStrains[:4] {
		if lvl, rest, ok := strings.Cut(s, st.Code); ok && len(lvl) == 1 {
			return lvl + st.Sign + rest
		}
	}
	return s
}

// vulText names who is vulnerable: a Chicago's N–S, E–W, both or none; at
// draw bridge the player (vulnerable after a game).
func vulText(p *site.Page, v [2]bool, m *bridgeMatch) string {
	switch {
	case v[0] && v[1]:
		return p.T("bsheet.both")
	case !v[0] && !v[1]:
		return p.T("bsheet.none")
	case v[0]:
		return m.Labels[0]
	}
	return m.Labels[1]
}

// fillMatch writes a bridge table's match into gm: its deals with dealer,
// vulnerability and points, the sides' totals, and the deal to enter next
// with its dealer and vulnerability.
func fillMatch(p *site.Page, gm *tableGame, set tournament.Settings, t tournament.Table, res *bridge.Result, players []sheet.TablePlayer) {
	m := &bridgeMatch{Draw: len(t.Players) == 2, Declarers: players, Strains: sheet.BridgeStrains}
	short := func(pid string) string {
		if i := slices.Index(t.Players, pid); i >= 0 {
			return players[i].Short
		}
		return ""
	}
	if m.Draw {
		m.Sides = [2]string{players[0].Name, players[1].Name}
		m.Labels = [2]string{players[0].Short, players[1].Short}
	} else {
		m.Sides = [2]string{players[0].Name + " & " + players[2].Name, players[1].Name + " & " + players[3].Name}
		m.Labels = [2]string{p.T("bsheet.ns"), p.T("bsheet.ew")}
	}
	dealer := t.FirstDealer
	for k, dr := range res.Deals {
		ln := bridgeLine{Deal: k + 1, Number: dr.Number, Dealer: short(dealer), Vul: vulText(p, dr.Vulnerable, m),
			Tricks: dr.Tricks, Points: dr.Points, Totals: dr.Totals}
		if !dr.PassedOut {
			ln.Contract, ln.Declarer = contractText(dr.Contract), short(dr.Declarer)
		}
		m.Deals = append(m.Deals, ln)
		dealer = nextDealerAfter(t, dealer, dr, m.Draw)
	}
	m.Totals = res.Totals
	next := res.NextDealer
	if next == "" {
		next = t.FirstDealer
	}
	counted := 0
	for _, dr := range res.Deals {
		if dr.Number > 0 {
			counted++
		}
	}
	m.Skipped = len(res.Deals) - counted
	switch sheet := play.BridgeSheet(set, t); {
	case m.Draw:
		m.NextVul = vulText(p, [2]bool{res.Games[0] > 0, res.Games[1] > 0}, m)
	case counted < len(sheet):
		m.NextVul = vulText(p, sheet[counted].Vulnerable, m)
	}
	gm.Bridge = m
	slices.SortStableFunc(gm.Places, func(a, b sheet.PlaceView) int { return b.Score - a.Score })
	gm.NextDeal, gm.NextDealer = len(res.Deals)+1, short(next)
	m.NextNumber = gm.NextDeal - m.Skipped
	// The script names the dealer of deals entered ahead on this phone by
	// turns from the next one (a deal passed out later may change that).
	seat := max(slices.Index(t.Players, next), 0)
	n := len(t.Players)
	for k := range n {
		gm.Dealers = append(gm.Dealers, players[(seat+k-(gm.NextDeal-1)%n+n)%n].Short)
	}
	gm.Totals = res.Totals[:]
}

// nextDealerAfter is who deals after deal dr dealt by dealer: a Chicago
// deal passed out is dealt again by the same dealer.
func nextDealerAfter(t tournament.Table, dealer string, dr bridge.DealResult, draw bool) string {
	if dr.PassedOut && !draw {
		return dealer
	}
	i := slices.Index(t.Players, dealer)
	return t.Players[(i+1)%len(t.Players)]
}

// bridgeEntry builds a bridge deal from the entry form: a pasted deal as
// it is, "passed out", or the contract, declarer and tricks. Choices that
// are missing or not possible are answered as messages beside them.
func bridgeEntry(c echo.Context, p *site.Page, t tournament.Table) ([]byte, []sheet.TableMessage) {
	return sheet.BridgeEntryOf(func(name string) string { return trimmed(c, name) }, p, t)
}

// bridgeFields places the bridge engine's problems with an entered deal
// beside the form's choices.
var bridgeFields = map[string]string{"/contract": "level", "/declarer": "declarer", "/tricks": "tricks"}
