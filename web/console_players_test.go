package web_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding/charmap"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/transfer"
)

var hiddenCSV = regexp.MustCompile(`name="csv" value="([^"]*)"`)

// TestImportPreviewThenImport: a Swedish Excel list (semicolons, Windows-
// 1252) is shown for a check, nothing is stored until the organizer
// confirms, and the confirmed list is stored as it was shown.
func TestImportPreviewThenImport(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 0, false)
	b := s.browser(t)
	b.lang = "sv"
	b.login(f.Token)
	players := "/t/" + f.ID + "/console/players"
	win1252, _ := charmap.Windows1252.NewEncoder().String("Namn;Klubb\r\nÅsa Öberg;Göteborgs BK;;\r\nBjörn Ängel;Umeå\r\n")
	r := b.post(players, players+"/import", url.Values{"csv": {win1252}})
	if r.Status != http.StatusOK || !strings.Contains(r.Body, `id="import-preview"`) {
		t.Fatalf("import without confirming = %d, want 200 and the preview\n%s", r.Status, r.Body)
	}
	for _, want := range []string{"Åsa Öberg", "Göteborgs BK", "Björn Ängel", "2 spelare, avgränsade med semikolon, lästa som Windows-1252",
		"Första raden namnger kolumnerna", "Importera 2 spelare"} {
		if !strings.Contains(r.Body, want) {
			t.Errorf("preview lacks %q", want)
		}
	}
	if ps, _ := s.svc.Players(context.Background(), f.ID); len(ps) != 0 {
		t.Fatalf("the preview stored %d players", len(ps))
	}
	m := hiddenCSV.FindStringSubmatch(r.Body)
	if m == nil {
		t.Fatalf("preview has no list to confirm:\n%s", r.Body)
	}
	r = b.post(players, players+"/import", url.Values{"csv": {html.UnescapeString(m[1])}, "confirm": {"1"}})
	if r.Status != http.StatusSeeOther {
		t.Fatalf("confirmed import = %d, want 303\n%s", r.Status, r.Body)
	}
	ps, _ := s.svc.Players(context.Background(), f.ID)
	if len(ps) != 2 || ps[0].Name != "Åsa Öberg" || ps[0].Club != "Göteborgs BK" || ps[1].Name != "Björn Ängel" {
		t.Fatalf("imported players = %+v", ps)
	}
	// A bad list shows its error at the form, and imports nothing.
	r = b.post(players, players+"/import", url.Values{"csv": {"Namn;Klubb\n;Umeå\n"}, "confirm": {"1"}})
	if r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.Body, `id="import-error"`) {
		t.Errorf("bad list = %d, want 422 with the error at the import form\n%s", r.Status, r.Body)
	}
	// Downloads: the list in the import's columns, plain and for Excel.
	csv := b.mustGet(players+".csv", http.StatusOK)
	if csv.Body != "name,club\nÅsa Öberg,Göteborgs BK\nBjörn Ängel,Umeå\n" {
		t.Errorf("players CSV = %q", csv.Body)
	}
	excel := b.mustGet(players+".csv?variant=excel", http.StatusOK)
	if excel.Body != "\ufeffname;club\r\nÅsa Öberg;Göteborgs BK\r\nBjörn Ängel;Umeå\r\n" {
		t.Errorf("players CSV for Excel = %q", excel.Body)
	}
	if got, err := transfer.ParsePlayersCSV(strings.NewReader(excel.Body)); err != nil || len(got) != 2 || got[0].Name != "Åsa Öberg" {
		t.Errorf("the Excel download does not import again: %v, %v", got, err)
	}
}

// TestEditAndDeletePlayer: the organizer renames a player and deletes one
// until round 1 is drawn; bad names are refused at the field; others are
// sent to log in; after the draw the deletion is refused in words.
func TestEditAndDeletePlayer(t *testing.T) {
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 9, false)
	ps, _ := s.svc.Players(context.Background(), f.ID)
	players := "/t/" + f.ID + "/console/players"
	edit := players + "/" + ps[0].ID

	anon := s.browser(t)
	if r := anon.get(edit); r.Status != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
		t.Errorf("GET %s without logging in = %d %s, want a redirect to /login", edit, r.Status, r.Header.Get("Location"))
	}
	b := s.browser(t)
	b.login(f.Token)
	if r := b.post(edit, edit, url.Values{"name": {"Anna-Karin Berg"}, "club": {"BK Ess"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("rename = %d, want 303\n%s", r.Status, r.Body)
	}
	if r := b.post(edit, edit, url.Values{"name": {"  "}, "club": {"BK Ess"}}); r.Status != http.StatusBadRequest ||
		!strings.Contains(r.Body, `id="edit-name" name="name" required value="  " aria-invalid="true"`) {
		t.Errorf("empty name = %d, want 400 with the error at the name field\n%s", r.Status, r.Body)
	}
	if r := b.post(edit, players+"/p99/delete", nil); r.Status != http.StatusNotFound {
		t.Errorf("delete an unknown player = %d, want 404", r.Status)
	}
	del := players + "/" + ps[8].ID
	if r := b.post(del, del+"/delete", nil); r.Status != http.StatusSeeOther {
		t.Fatalf("delete = %d, want 303\n%s", r.Status, r.Body)
	}
	got, _ := s.svc.Players(context.Background(), f.ID)
	if len(got) != 8 || got[0].Name != "Anna-Karin Berg" || got[0].Club != "BK Ess" {
		t.Fatalf("players after rename and delete = %+v", got)
	}
	list := b.mustGet(players, http.StatusOK)
	if strings.Contains(list.Body, ps[8].Name+"<") || !strings.Contains(list.Body, "Anna-Karin Berg") {
		t.Errorf("player list after rename and delete:\n%s", list.Body)
	}
	seed := int64(1)
	if _, err := s.plays.DrawRound(context.Background(), tournament.Actor{Role: tournament.RoleAdmin}, f.ID, &seed); err != nil {
		t.Fatal(err)
	}
	// The pages learn of the draw through the event stream: wait for it.
	deadline := time.Now().Add(5 * time.Second)
	for r := b.get(edit); !strings.Contains(r.Body, `id="delete-late"`) || strings.Contains(r.Body, `id="delete-player"`); r = b.get(edit) {
		if time.Now().After(deadline) {
			t.Fatalf("after the draw the edit page still offers the deletion")
		}
		time.Sleep(50 * time.Millisecond)
	}
	r := b.post(edit, edit+"/delete", nil)
	if r.Status != http.StatusConflict || !strings.Contains(r.Body, "can no longer be deleted, only withdrawn") {
		t.Errorf("delete after the draw = %d, want 409 in words\n%s", r.Status, r.Body)
	}
}
