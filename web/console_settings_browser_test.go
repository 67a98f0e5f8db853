package web_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/revisor-sm/revisor/tournament"
)

// TestBrowserSettingsPage (issue 14, item 2): in Chromium at 360 and 1366
// px, in Swedish and English, the create form offers the correction window
// and the time zone; the console's settings page is prefilled, marks
// each bad field next to it in words and saves a good one; after the draw
// it shows the settings read only with the reason. No page scrolls
// sideways; screenshots of each go to the artifacts.
func TestBrowserSettingsPage(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	open := s.mustTournament(t, tournament.FormatSM, 8, false)
	drawn := s.mustTournament(t, tournament.FormatSM, 8, true)
	texts := map[string]map[string]string{
		"sv": {"games": "Skriv antalet partier, från 1 till 20.", "locked": "rond 1 är lottad", "saved": "Sparat."},
		"en": {"games": "Write the number of games, from 1 to 20.", "locked": "round 1 has been drawn", "saved": "Saved."},
	}
	for _, size := range viewports {
		c := newChrome(t, size.w, size.h)
		c.do("viewport", chromedp.EmulateViewport(int64(size.w), int64(size.h)))
		c.allow("422 (Unprocessable Entity)") // the form with bad values, on purpose
		c.adminLogin(s.URL)
		fits := func(what string) {
			if got := c.eval(`String(document.documentElement.scrollWidth <= window.innerWidth)`); got != "true" {
				t.Errorf("%s at %d px scrolls sideways: %s", what, size.w, c.eval(wideElements))
			}
		}
		for _, lang := range []string{"sv", "en"} {
			shot := func(name string) { c.screenshot(fmt.Sprintf("settings-%s-%s-%s", name, lang, size.name)) }
			goTo := func(path, wait string) {
				c.do("open "+path, chromedp.Navigate(s.URL+"/lang/"+lang+"?next="+url.QueryEscape(path)), chromedp.WaitVisible(chromedp.ID(wait)))
				fits(lang + " " + path)
			}
			goTo("/admin", "time_zone")
			if got := c.eval(`document.getElementById("correction").value + " " + document.getElementById("time_zone").value`); got != "30 Europe/Stockholm" {
				t.Errorf("%s create form's correction window and time zone = %q, want 30 Europe/Stockholm", lang, got)
			}
			c.do("scroll to the time zone", chromedp.ScrollIntoView(chromedp.ID("time_zone")))
			shot("create-form")

			page := "/t/" + open.ID + "/console/settings"
			goTo(page, "settings-form")
			if got := c.eval(`document.getElementById("points").value`); got != "20, 12, 8, 5" {
				t.Errorf("%s settings form's points = %q, want the stored 20, 12, 8, 5", lang, got)
			}
			shot("form")
			c.eval(`document.getElementById("games").value = "0"; document.getElementById("points").value = "5, 8, 3, 1"; ""`)
			c.clickAndWait("save bad values", "#save-settings", `document.getElementById("settings-error") !== null`)
			fits(lang + " settings with errors")
			if got := c.eval(`[...document.querySelectorAll("[aria-invalid=true]")].map(e => e.id).join(" ")`); got != "games points" {
				t.Errorf("%s fields marked = %q, want games points", lang, got)
			}
			if got := c.eval(`document.getElementById("games-error").textContent`); got != texts[lang]["games"] {
				t.Errorf("%s games error = %q, want %q", lang, got, texts[lang]["games"])
			}
			c.do("scroll to the errors", chromedp.ScrollIntoView(chromedp.ID("games")))
			shot("errors")
			c.eval(`document.getElementById("games").value = "2"; document.getElementById("points").value = "20, 12, 8, 5"; ""`)
			c.clickAndWait("save", "#save-settings", `location.search.includes("saved=1")`)
			if got := c.eval(`document.querySelector("p.ok").textContent`); got != texts[lang]["saved"] {
				t.Errorf("%s after saving the page says %q", lang, got)
			}
			if got := c.eval(`document.getElementById("games").value`); got != "2" {
				t.Errorf("%s games after saving = %q, want 2", lang, got)
			}

			goTo("/t/"+drawn.ID+"/console/settings", "settings-locked")
			if got := c.eval(`document.getElementById("settings-locked").textContent`); !strings.Contains(got, texts[lang]["locked"]) {
				t.Errorf("%s locked settings say %q, want %q in it", lang, got, texts[lang]["locked"])
			}
			if c.eval(`String(document.getElementById("settings-form") === null)`) != "true" {
				t.Errorf("%s settings after the draw still show a form", lang)
			}
			shot("locked")
		}
	}
}
