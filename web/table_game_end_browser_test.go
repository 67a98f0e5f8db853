// Browser test: the end of a game on the table page (issue 30, "the end
// of a game is easy to miss").
package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/revisor-sm/revisor/internal/tablepage"
	"github.com/revisor-sm/revisor/tournament"
)

// TestBrowserGameEndShowsTheConfirmation plays game 1 to its end on a
// phone opened on the table page without naming a game, at 360 px and
// desktop in Swedish and English: the page stays on the finished game with
// its confirm buttons in view (not the next game's form, the buttons on
// the finished game's tab), and the game's rows do not each repeat that
// they were sent.
func TestBrowserGameEndShowsTheConfirmation(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	for _, vp := range viewports {
		for _, lang := range []string{"sv", "en"} {
			f := s.mustTournament(t, tournament.FormatSM, 8, true)
			code := tableCode(t, s, f, 1)
			page := "/t/" + f.ID + "/table"
			c := newChrome(t, vp.w, vp.h)
			c.do("viewport", chromedp.EmulateViewport(int64(vp.w), int64(vp.h)))
			c.do("open the table", chromedp.Navigate(s.URL+"/lang/"+lang+"?next=/"), chromedp.Navigate(s.URL+page+"#code="+code),
				chromedp.WaitVisible(chromedp.ID("deal-form")))
			c.do("enter deal 1", chromedp.Evaluate[chromedp.Void](tablepage.Enter(map[string]string{"s1_hand1": "2", "s2_last": "5"})))
			waitJS(t, c, "deal 1 stored", serverHas(1, false), 20*time.Second)
			setClock(t, s, f, `{"action": "start", "minutes": 90}`)
			setClock(t, s, f, `{"action": "call_time"}`)
			c.do("enter the last deal", chromedp.Evaluate[chromedp.Void](tablepage.Enter(map[string]string{"s3_last": "5"})))
			waitJS(t, c, "the game's end shown", `!!document.getElementById("confirm")`, 20*time.Second)
			what := fmt.Sprintf("%s %s", lang, vp.name)
			if got := c.eval(`String(!!document.getElementById("deal-form"))`); got != "false" {
				t.Errorf("%s: after the last deal the page shows the next game's form, not the finished game", what)
			}
			inView := `(() => { const b = document.querySelector("#confirm .confirm-button"); if (!b) return "no button";
				const r = b.getBoundingClientRect(); return String(r.top >= 0 && r.bottom <= window.innerHeight); })()`
			waitJS(t, c, "the confirm buttons in view", inView+` === "true"`, 5*time.Second)
			rows := c.eval(`Array.from(document.querySelectorAll("#deals tbody td.status")).map(td => td.textContent.trim()).join("|")`)
			if n := strings.Count(rows, "|") + 1; rows != "" && strings.Count(rows, strings.Split(rows, "|")[0]) == n && strings.Split(rows, "|")[0] != "" {
				t.Errorf("%s: every row of the finished game repeats %q (%s)", what, strings.Split(rows, "|")[0], rows)
			}
			c.notSideways(what + " table at the game's end")
			c.screenshot(fmt.Sprintf("table-game-end-%s-%s", lang, vp.name))
		}
	}
}
