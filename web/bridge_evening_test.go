package web_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/engine/bridge"
	bridgesim "github.com/revisor-sm/revisor/engine/bridge/sim"
	"github.com/revisor-sm/revisor/tournament"
)

// cardCode reads each table's code from the console's table cards.
var cardCode = regexp.MustCompile(`(?s)id="card-(\d+)">.*?class="code">([^<]+)<`)

// TestBridgeEveningThroughThePages runs a 16-player Chicago bridge evening
// of 4 rounds through the web pages only: the organizer draws each round
// and closes it in the console, each table reads its code from the
// printed cards, enters its Chicago deal by deal on the table page
// (contract, declarer, tricks, or passed out) and every player confirms
// it there; the rounds close without accepting unconfirmed games. The
// standings page must show what an independent scorer in this test (the
// laws' table and the Chicago's schedule, written here from
// docs/bridge.md) gives for the deals played.
func TestBridgeEveningThroughThePages(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	ctx := context.Background()
	rounds := 4
	c, err := s.svc.CreateTournament(ctx, admin, tournament.NewTournament{Name: "Bridgeafton", Format: tournament.FormatBridge, Rounds: &rounds})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{ID: c.Tournament.ID, Token: c.OrganizerToken}
	nps := make([]tournament.NewPlayer, 16)
	for i := range nps {
		nps[i] = tournament.NewPlayer{Name: playerName(i), Club: "BK Ess"}
	}
	if f.Players, err = s.svc.AddPlayers(ctx, org, f.ID, nps); err != nil {
		t.Fatal(err)
	}
	o := s.browser(t)
	o.login(f.Token)
	console := "/t/" + f.ID + "/console"
	sim := bridgesim.New(21, bridgesim.Options{})
	want := map[string]int{}
	for r := 1; r <= rounds; r++ {
		if resp := o.post(console, console+"/rounds", url.Values{"seed": {strconv.Itoa(r)}}); resp.Status != http.StatusSeeOther {
			t.Fatalf("draw round %d = %d\n%s", r, resp.Status, resp.Body)
		}
		st, err := s.svc.Snapshot(ctx, f.ID)
		if err != nil || len(st.Rounds) != r {
			t.Fatalf("after drawing round %d: %d rounds, %v", r, len(st.Rounds), err)
		}
		round := st.Rounds[r-1]
		cards := o.mustGet(console+"/rounds/"+strconv.Itoa(r)+"/cards", http.StatusOK).Body
		codes := map[int]string{}
		for _, m := range cardCode.FindAllStringSubmatch(cards, -1) {
			n, _ := strconv.Atoi(m[1])
			codes[n] = strings.TrimSpace(m[2])
		}
		if len(round.Tables) != 4 || len(codes) != 4 {
			t.Fatalf("round %d: %d tables, %d codes on the cards; want 4 and 4", r, len(round.Tables), len(codes))
		}
		for _, tb := range round.Tables {
			b := s.browser(t)
			if resp := b.tableLogin(f, codes[tb.Number]); resp.Status != http.StatusSeeOther {
				t.Fatalf("round %d table %d: the card's code = %d", r, tb.Number, resp.Status)
			}
			totals := playBridgeTable(t, b, f, sim, tb)
			for i, p := range tb.Players {
				want[p] += totals[i%2] - totals[1-i%2]
			}
			page := "/t/" + f.ID + "/table"
			for _, pid := range tb.Players {
				if resp := b.post(page, page+"/games/1/confirmations", url.Values{"player": {pid}}); resp.Status != http.StatusSeeOther {
					t.Fatalf("round %d table %d: confirm = %d\n%s", r, tb.Number, resp.Status, resp.Body)
				}
			}
		}
		if resp := o.post(console, console+"/rounds/"+strconv.Itoa(r)+"/close", url.Values{}); resp.Status != http.StatusSeeOther {
			t.Fatalf("close round %d = %d\n%s", r, resp.Status, resp.Body)
		}
	}
	_, rows, err := s.svc.Standings(ctx, f.ID)
	if err != nil {
		t.Fatal(err)
	}
	page := s.browser(t).mustGet("/t/"+f.ID+"/standings", http.StatusOK).Body
	sum := 0
	for _, row := range rows {
		sum += row.PlacementPoints
		if row.PlacementPoints != want[row.Player.ID] || row.GamesPlayed != 4 {
			t.Errorf("%s: %d over %d rounds, want %d over 4", row.Player.Name, row.PlacementPoints, row.GamesPlayed, want[row.Player.ID])
		}
	}
	if sum != 0 || len(rows) != 16 {
		t.Errorf("standings: %d rows adding up to %d, want 16 adding up to 0", len(rows), sum)
	}
	// The page shows each player with the independent total.
	for _, p := range f.Players {
		line := regexp.MustCompile(regexp.QuoteMeta(p.Name) + `(?s).{0,400}?` + regexp.QuoteMeta(strconv.Itoa(want[p.ID])) + `\b`)
		if !line.MatchString(page) {
			t.Errorf("the standings page does not show %s with %d", p.Name, want[p.ID])
		}
	}
}

// playBridgeTable plays a simulated Chicago at tb on the table page, deal
// by deal, and returns the sides' totals by the test's own scorer.
func playBridgeTable(t *testing.T, b *browser, f *fixture, sim *bridgesim.Sim, tb tournament.Table) [2]int {
	t.Helper()
	first := slices.Index(tb.Players, tb.FirstDealer)
	m := bridge.NewMatch(bridge.GameChicago, tb.Players, bridge.Rules{}, first) // drives the simulation only
	var sc chicagoScorer
	for n := 1; !m.Complete(); n++ {
		d, con, decl := sim.Deal(tb.Players, m.Dealer())
		form := url.Values{"level": {"pass"}}
		if d.Tricks == bridge.NoTricks {
			m.PassOut()
		} else {
			m.Play(con, decl, d.Tricks)
			form = bridgeDeal(con.String(), tb.Players[decl], strconv.Itoa(d.Tricks))
			sc.play(con.String(), decl%2, (first+sc.counted)%4, d.Tricks)
		}
		status, ans := b.postDeal(f, 1, n, "", form)
		if !ans.OK || ans.GameOver != m.Complete() {
			t.Fatalf("table %d deal %d (%v) = %d %+v, want ok, over %v", tb.Number, n, form, status, ans, m.Complete())
		}
	}
	return sc.totals
}

// chicagoScorer scores a Chicago as docs/bridge.md describes it,
// independently of engine/bridge: the laws' table without honours, games
// paid at once (300, 500 vulnerable), partscores reset after a game, 100
// for a partscore on the fourth deal, vulnerability by the dealer's side
// on deals 2 and 3.
type chicagoScorer struct {
	counted int
	below   [2]int
	totals  [2]int
}

// play scores a contract ("4SX") by side, dealt by seat dealer, with
// tricks taken by the declaring side.
func (c *chicagoScorer) play(contract string, side, dealer, tricks int) {
	c.counted++
	vul := c.counted == 4 || (c.counted == 2 || c.counted == 3) && dealer%2 == side
	level, _ := strconv.Atoi(contract[:1])
	strain := strings.TrimRight(contract[1:], "X")
	mult := map[int]int{0: 1, 1: 2, 2: 4}[len(contract)-1-len(strain)]
	need := level + 6
	if tricks < need {
		c.totals[1-side] += undertricks(need-tricks, mult, vul)
		return
	}
	per := map[string]int{"C": 20, "D": 20, "H": 30, "S": 30, "NT": 30}[strain]
	trick := per * level
	if strain == "NT" {
		trick += 10
	}
	trick *= mult
	pts := trick
	over := tricks - need
	switch {
	case mult == 1:
		pts += over * per
	default:
		pts += over * (mult / 2) * pick(vul, 200, 100)
		pts += 25 * mult // 50 doubled, 100 redoubled
	}
	switch level {
	case 6:
		pts += pick(vul, 750, 500)
	case 7:
		pts += pick(vul, 1500, 1000)
	}
	c.below[side] += trick
	if c.below[side] >= 100 {
		pts += pick(vul, 500, 300)
		c.below = [2]int{}
	} else if c.counted == 4 {
		pts += 100
	}
	c.totals[side] += pts
}

// undertricks is what the defenders get for n undertricks.
func undertricks(n, mult int, vul bool) int {
	if mult == 1 {
		return n * pick(vul, 100, 50)
	}
	pts := 0
	for k := 1; k <= n; k++ {
		switch {
		case k == 1:
			pts += pick(vul, 200, 100)
		case k <= 3 && !vul:
			pts += 200
		default:
			pts += 300
		}
	}
	return pts * mult / 2
}

func pick(vul bool, yes, no int) int {
	if vul {
		return yes
	}
	return no
}
