// Browser test: a refused deal waiting in the phone's queue is shown in
// the language the player reads the page in now (issue 30).
package web_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/revisor-sm/revisor/tournament"
)

// refusedWords is the text of the refused deal's line at the top of the
// table page.
const refusedWords = `document.querySelector('#decide li[data-state="refused"] .decision-what').textContent`

// TestBrowserRefusedDealFollowsTheLanguage refuses a pasted deal at a
// table read in Swedish, then switches the page to English and to
// Finnish, at 360 px and desktop: the refusal's words are said again in
// the new language. Before, the server's Swedish words stayed.
func TestBrowserRefusedDealFollowsTheLanguage(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	for _, vp := range viewports {
		f := s.mustTournament(t, tournament.FormatSM, 8, true)
		code := tableCode(t, s, f, 1)
		page := "/t/" + f.ID + "/table"
		c := newChrome(t, vp.w, vp.h)
		c.do("viewport", chromedp.EmulateViewport(int64(vp.w), int64(vp.h)))
		c.allow("status of 422") // the refused deal, on purpose
		c.do("open the table in Swedish", chromedp.Navigate(s.URL+"/lang/sv?next="+url.QueryEscape(page)),
			chromedp.Navigate(s.URL+"/"), chromedp.Navigate(s.URL+page+"#code="+code), chromedp.WaitVisible(chromedp.ID("deal-form")))
		c.do("paste a deal of nobody", chromedp.Evaluate[chromedp.Void](pasteDealOfNobody))
		waitJS(t, c, "the refusal", `!!document.querySelector('#decide li[data-state="refused"]')`, 20*time.Second)
		sv := c.eval(refusedWords)
		words := map[string]string{"sv": sv}
		for _, lang := range []string{"en", "fi"} {
			c.do("switch to "+lang, chromedp.Navigate(s.URL+"/lang/"+lang+"?next="+url.QueryEscape(page)), chromedp.WaitVisible(chromedp.ID("deal-form")))
			waitJS(t, c, "the refusal in "+lang, `!!document.querySelector('#decide li[data-state="refused"]')`, 20*time.Second)
			words[lang] = c.eval(refusedWords)
			c.screenshot(fmt.Sprintf("table-refused-%s-%s", lang, vp.name))
		}
		// The line is the page's heading (always translated) and the
		// server's words: compare what follows the deal's number.
		serverPart := func(s string) string { _, after, _ := strings.Cut(s, "1"); return strings.TrimSpace(after) }
		for _, lang := range []string{"en", "fi"} {
			got, was := serverPart(words[lang]), serverPart(sv)
			if got == "" || strings.Contains(got, was) || strings.Contains(words[lang], "inte") {
				t.Errorf("%s: the refused deal reads %q in %s, still the Swedish words %q", vp.name, words[lang], lang, sv)
			}
		}
	}
}
