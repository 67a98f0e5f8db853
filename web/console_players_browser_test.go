package web_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"golang.org/x/text/encoding/charmap"

	"github.com/revisor-sm/revisor/tournament"
)

// wideElements names the first elements that reach past the window's
// right edge.
const wideElements = `[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5).
	slice(0, 6).map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).join(' | ')`

// TestBrowserImportEditDelete: on a 360 px phone, in Swedish, the organizer
// uploads the club's Excel list (semicolons, Windows-1252), checks the
// preview, imports it, renames a player, and deletes one after saying yes
// in the confirmation dialog; "Avbryt" in the dialog deletes nothing.
func TestBrowserImportEditDelete(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 0, false)
	file := filepath.Join(t.TempDir(), "spelare.csv")
	list, _ := charmap.Windows1252.NewEncoder().String("Namn;Klubb\r\nÅsa Öberg;Göteborgs BK\r\nBjörn Ängel;Umeå\r\nCarl Ek;\r\n")
	if err := os.WriteFile(file, []byte(list), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newChrome(t, 360, 740)
	c.do("viewport", chromedp.EmulateViewport(360, 740))
	players := s.URL + "/t/" + f.ID + "/console/players"
	c.do("log in", chromedp.Navigate(s.URL+"/lang/sv?next=/login"),
		chromedp.SendKeys(chromedp.ID("token"), f.Token), chromedp.Submit(chromedp.ID("token")),
		chromedp.WaitVisible(chromedp.ID("players-link")))
	c.do("upload the list", chromedp.Navigate(players), chromedp.SetUploadFiles(chromedp.ID("csv-file"), []string{file}),
		chromedp.Click(chromedp.ID("import-players")), chromedp.WaitVisible(chromedp.ID("import-preview")))
	if got := c.eval(`document.getElementById("preview-found").textContent`); got !=
		"3 spelare, avgränsade med semikolon, lästa som Windows-1252. Första raden namnger kolumnerna och importeras inte." {
		t.Errorf("preview says %q", got)
	}
	if got := c.eval(`[...document.querySelectorAll("#preview-rows tbody td:nth-child(2)")].map(e => e.textContent).join("|")`); got != "Åsa Öberg|Björn Ängel|Carl Ek" {
		t.Errorf("preview names = %q", got)
	}
	c.screenshot("import-preview-sv-phone")
	c.clickAndWait("import", "#import-confirm", `document.getElementById("player-list") !== null`)
	if got := c.eval(`String(document.querySelectorAll("#player-list tbody tr").length)`); got != "3" {
		t.Fatalf("players listed after the import = %s, want 3", got)
	}
	c.screenshot("console-players-sv-phone")

	c.clickAndWait("edit", "#player-p1 a.edit", `document.getElementById("edit-name") !== null`)
	c.do("rename", chromedp.SetValue(chromedp.ID("edit-name"), "Åsa Öberg-Lind"))
	c.clickAndWait("save", "#save-player", `document.getElementById("player-list") !== null`)

	c.do("open Carl", chromedp.Navigate(players+"/p3"), chromedp.WaitVisible(chromedp.ID("delete-player")))
	c.do("ask to delete, then cancel", chromedp.Click(chromedp.ID("delete-player")), chromedp.WaitVisible(chromedp.ID("confirm-dialog")))
	if got := c.eval(`document.getElementById("confirm-text").textContent`); got != "Ta bort Carl Ek ur turneringen?" {
		t.Errorf("the dialog asks %q", got)
	}
	c.screenshot("delete-confirm-sv-phone")
	c.do("cancel", chromedp.Click(chromedp.ID("confirm-cancel")), chromedp.WaitNotVisible(chromedp.ID("confirm-dialog")))
	if ps, _ := s.svc.Players(context.Background(), f.ID); len(ps) != 3 {
		t.Fatalf("after cancelling: %d players, want 3", len(ps))
	}
	c.do("ask to delete again", chromedp.Click(chromedp.ID("delete-player")), chromedp.WaitVisible(chromedp.ID("confirm-dialog")))
	c.clickAndWait("say yes", "#confirm-ok", `document.getElementById("player-list") !== null`)
	ps, _ := s.svc.Players(context.Background(), f.ID)
	if len(ps) != 2 || ps[0].Name != "Åsa Öberg-Lind" || ps[1].Name != "Björn Ängel" {
		t.Errorf("players after rename and delete = %+v", ps)
	}
	if wide := c.eval(`String(document.documentElement.scrollWidth)`); wide != "360" {
		t.Errorf("player list at 360 px is %s px wide: %s", wide, c.eval(wideElements))
	}
}
