package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/revisor-sm/revisor/tournament"
)

// colourOnly names the elements of the page whose colour shows a state
// (a deal's status, a confirmation, a flag, an error, the clock, a room
// table's border) and which carry no word or symbol beside it.
const colourOnly = `[...document.querySelectorAll("td.status, .ok, .flag, .error, .clock, .room-table.stale, .room-table.waiting, .room-table.done, [aria-invalid=true]")].
	filter(e => e.checkVisibility() && !(e.innerText || "").trim() && e.tagName !== "INPUT" && e.tagName !== "SELECT").
	map(e => e.tagName.toLowerCase() + "." + e.className).join(", ")`

// tabTo presses Tab until the element with id has the focus (at most 80
// times), as a keyboard user moves through the page.
func (c *chrome) tabTo(id string) {
	c.t.Helper()
	for range 80 {
		if c.eval(`document.activeElement ? document.activeElement.id : ""`) == id {
			return
		}
		c.do("Tab", chromedp.KeyEvent(kb.Tab))
	}
	c.t.Fatalf("80 Tabs did not reach #%s (the focus is on %s)", id, c.eval(`document.activeElement.outerHTML.slice(0, 80)`))
}

// TestBrowserTableByKeyboard (issue 30): the table page is used by the
// keyboard alone: Tab to a field, type the points, choose who took the
// last trick with the arrow keys, Tab to "Save the deal" and press Enter;
// the deal is stored, at 360 px and desktop. No state on the table page
// or in the room is shown by colour only.
func TestBrowserTableByKeyboard(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	code := tableCode(t, s, f, 1)
	for _, vp := range viewports {
		c := newChrome(t, vp.w, vp.h)
		c.do("viewport", chromedp.EmulateViewport(int64(vp.w), int64(vp.h)))
		c.do("open the table", chromedp.Navigate(s.URL+"/lang/en?next=/"), chromedp.Navigate(s.URL+"/t/"+f.ID+"/table#code="+code),
			chromedp.WaitVisible(chromedp.ID("deal-form")))
		deal := 1
		if vp.w > 360 {
			deal = 2 // the phone entered deal 1
		}
		waitJS(t, c, "the entry of deal "+fmt.Sprint(deal), fmt.Sprintf(`document.getElementById("deal-number").value === "%d"`, deal), 10*time.Second)
		c.tabTo("s1_hand1")
		c.do("type the points", chromedp.KeyEvent("4"))
		c.tabTo("s2_last")
		c.do("choose the last trick", chromedp.KeyEvent(kb.ArrowDown))
		if got := c.eval(`document.getElementById("s2_last").value`); got != "5" {
			t.Fatalf("%s: the arrow key chose %q for the last trick, want 5", vp.name, got)
		}
		c.tabTo("save-deal")
		c.do("save", chromedp.KeyEvent(kb.Enter))
		waitJS(t, c, "the deal stored", serverHas(deal, false), 20*time.Second)
		if got := c.eval(colourOnly); got != "" {
			t.Errorf("%s: states shown by colour only on the table page: %s", vp.name, got)
		}
		c.screenshot("table-keyboard-" + vp.name)
	}
	got := storedDeals(t, s, f, 1)
	if len(got) != 2 || got[0]["s1_hand1"] != "4" || got[0]["s2_last"] != "5" {
		t.Errorf("the server holds %v, want two deals typed by keyboard", got)
	}
	c := newChrome(t, 1366, 900)
	c.adminLogin(s.URL)
	c.do("the room", chromedp.Navigate(s.URL+"/t/"+f.ID+"/console/rounds/1/room"), chromedp.WaitVisible(chromedp.ID("room-summary")))
	if got := c.eval(colourOnly); got != "" {
		t.Errorf("states shown by colour only in the room: %s", got)
	}
	if txt := c.eval(`document.getElementById("room-table-1").innerText`); !strings.Contains(txt, "deals: 2") {
		t.Errorf("the room's table 1 reads %q, want its 2 deals in words", txt)
	}
}
