package site

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"
)

// unkeyedForms are the posting forms of the templates that carry no
// Idempotency-Key, each with why a second send does no harm (beside
// static/app.js, which drops a second submit from the same page): a form
// is told by its template, its action and a piece of its text.
var unkeyedForms = []struct{ file, action, marker, why string }{
	{"admin.html", "/logout", "", "a session ends once"},
	{"console.html", "/logout", "", "a session ends once"},
	{"login.html", "/login", "", "a session begins again"},
	{"table_login.html", "/t/{{.Tournament.ID}}/table/login", "", "a session begins again"},
	{"table.html", "/t/{{$t.ID}}/table/logout", "", "a session ends once"},
	{"console_players.html", "{{$base}}/players/import", `type="file"`, "shows the list for a check; writes nothing"},
	{"console_table.html", "{{$base}}/withdraw", `id="withdraw-form"`, "asks for the confirmation; writes nothing"},
	{"result.html", "/t/{{$t.ID}}/console/rounds/{{$d.Round}}/tables/{{$d.Table}}/games/{{$d.Game}}", "", "the same record again is a harmless repeat (play.Submission.Created false)"},
}

var postForm = regexp.MustCompile(`(?s)<form\b[^>]*\bmethod="post"[^>]*>.*?</form>`)
var formAction = regexp.MustCompile(`\baction="([^"]*)"`)

// TestPostingFormsCarryAKey: every form of the pages that posts carries an
// Idempotency-Key (idempotency_key), so that the form sent twice (a double
// click without the script, a tap again on a slow network, a reload that
// posts again) is done once and answered as the first time; the forms
// listed in unkeyedForms say why they need none. A new form without a key
// fails this test until it has one or a reason. Each listed form exists.
func TestPostingFormsCarryAKey(t *testing.T) {
	t.Parallel()
	files, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil || len(files) == 0 {
		t.Fatalf("templates: %v, %v", files, err)
	}
	used := make([]bool, len(unkeyedForms))
	forms := 0
	for _, f := range files {
		b, err := fs.ReadFile(templateFS, f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(f, "templates/")
		for _, form := range postForm.FindAllString(string(b), -1) {
			forms++
			action := ""
			if m := formAction.FindStringSubmatch(form[:strings.Index(form, ">")+1]); m != nil {
				action = m[1]
			}
			keyed := strings.Contains(form, `name="idempotency_key"`)
			listed := -1
			for i, u := range unkeyedForms {
				if u.file == name && u.action == action && strings.Contains(form, u.marker) {
					listed = i
					break
				}
			}
			switch {
			case keyed && listed >= 0:
				t.Errorf("%s: the form posting to %s has a key and is listed as needing none (%s)", name, action, unkeyedForms[listed].why)
			case !keyed && listed < 0:
				t.Errorf("%s: the form posting to %s has no idempotency_key field and no reason in unkeyedForms", name, action)
			case listed >= 0:
				used[listed] = true
			}
		}
	}
	for i, u := range unkeyedForms {
		if !used[i] {
			t.Errorf("unkeyedForms lists %s's form posting to %s, which is not there (or has a key)", u.file, u.action)
		}
	}
	if forms < 25 {
		t.Errorf("%d posting forms found, want the pages' 25 or more: is the pattern still right?", forms)
	}
}
