package site

import (
	"errors"

	"github.com/revisor-sm/revisor/tournament"
)

// ErrorText is what a page shows of an application error, in the page's
// language: the catalogue's text of the error's code ("e.<code>"), else
// the text of its kind ("e.kind.<kind>"), so that a reader never meets
// the API's English sentence ("an sm tournament takes players only before
// round 1 is drawn") on a Swedish page. The API's problem documents keep
// the English message; the pages speak the catalogues' words, which name
// players and rounds as the page around them does. An error that is no
// application error is a server error and shows nothing of its cause.
func ErrorText(lang string, err error) string {
	if w := (*inWords)(nil); errors.As(err, &w) {
		return w.text
	}
	var te *tournament.Error
	if !errors.As(err, &te) {
		return Translate(lang, "e.internal")
	}
	if s, ok := messages[lang]["e."+te.Code]; ok {
		return s
	}
	if s, ok := messages[lang]["e.kind."+string(te.Kind)]; ok {
		return s
	}
	return Translate(lang, "e.kind."+string(tournament.KindInternal))
}

// inWords is an application error a page has already put in its reader's
// words (a form's own check, "Give a reason."): errorText shows its text
// rather than the code's general one. It unwraps to the application
// error, whose code, field and status the handlers read as before.
type inWords struct {
	text string
	err  *tournament.Error
}

func (e *inWords) Error() string { return e.err.Error() }
func (e *inWords) Unwrap() error { return e.err }

// SaidAs returns e with text as what the pages show of it.
func SaidAs(e *tournament.Error, text string) error { return &inWords{text: text, err: e} }
