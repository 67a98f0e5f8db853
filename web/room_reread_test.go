package web_test

import (
	"net/http"
	"regexp"
	"testing"
)

// TestRoomReadsItselfAgain (issue 30, axe-core's meta-refresh on the
// room): the room's minutes since the last entry move by a script that
// reads the page again in place (data-reread); the meta refresh that
// reloads the whole page is only for a browser without scripts.
func TestRoomReadsItselfAgain(t *testing.T) {
	t.Parallel()
	r := newRoomFixture(t)
	b := r.s.browser(t)
	b.login(r.Token)
	page := b.mustGet("/t/"+r.ID+"/console/rounds/1/room", http.StatusOK).Body
	if !regexp.MustCompile(`<body[^>]* data-reread="60"`).MatchString(page) {
		t.Errorf("the room's body has no data-reread=\"60\"")
	}
	if !regexp.MustCompile(`<noscript><meta http-equiv="refresh" content="60"></noscript>`).MatchString(page) ||
		regexp.MustCompile(`(^|[^>])<meta http-equiv="refresh"`).MatchString(page) {
		t.Errorf("the room's meta refresh is not (only) in <noscript>")
	}
}
