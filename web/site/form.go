// Reading the values of the pages' forms.
package site

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/tournament"
)

// OptionalInts reads an optional list of whole numbers ("2, 2, 1"); the
// first error is kept.
func OptionalInts(s, field string, prev error) ([]int, error) {
	var out []int
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
		v, err := strconv.Atoi(f)
		if err != nil || len(out) >= 100 {
			if prev == nil {
				prev = tournament.InvalidField(field, "%s", field+" must be whole numbers separated by commas")
			}
			return nil, prev
		}
		out = append(out, v)
	}
	return out, prev
}

// FieldOf returns the form field an error names, if any.
func FieldOf(err error) string {
	var te *tournament.Error
	if !errors.As(err, &te) {
		return ""
	}
	return te.Field()
}

// maxIdempotencyKey is the longest Idempotency-Key a table's post may
// carry, as the API's.
const maxIdempotencyKey = 255

// PostKey is the post's Idempotency-Key for app.Once: its scope is the
// page's path and the table's code (hashed), apart from the API's.
func (h *Site) PostKey(c echo.Context, code, content string) (*app.Key, error) {
	key := c.Request().Header.Get("Idempotency-Key")
	if key == "" {
		key = c.FormValue("idempotency_key")
	}
	if key == "" {
		return nil, nil
	}
	if !httpx.PrintableToken(key, maxIdempotencyKey) {
		return nil, tournament.Errorf(tournament.KindInvalid, tournament.CodeInvalidIdempotencyKey,
			"the Idempotency-Key must be 1 to %d printable characters without spaces", maxIdempotencyKey)
	}
	cred := sha256.Sum256([]byte(code))
	fp := sha256.Sum256([]byte(content))
	return &app.Key{Scope: "page " + c.Request().Method + " " + c.Request().URL.Path + " " + hex.EncodeToString(cred[:8]),
		Key: key, Fingerprint: fp[:]}, nil
}

// FormKey is a form's Idempotency-Key (PostKey, scoped to the form's path
// and code, the actor whose form it is), its fingerprint all the form says
// (formContent): the same key with any field changed is another form,
// refused, however the handler reads the fields.
func (h *Site) FormKey(c echo.Context, code string) (*app.Key, error) {
	form, _ := c.FormParams() // read already, by the CSRF check and the handler
	return h.PostKey(c, code, formContent(form))
}

// SealedFormKey is FormKey for a form whose answer carries a secret (a new
// referee token, a new tournament's organizer token): the key's Credential
// is the session's token, so the answer is kept sealed under it and opens
// only for the same session's retry (app.Key).
func (h *Site) SealedFormKey(c echo.Context, code string) (*app.Key, error) {
	k, err := h.FormKey(c, code)
	if k != nil {
		k.Credential = sessionToken(c)
	}
	return k, err
}

// formContent is what a form says, for its Idempotency-Key's fingerprint:
// every field but the key and the CSRF token, in the order of their names.
func formContent(form url.Values) string {
	rest := url.Values{}
	for k, v := range form {
		if k != "_csrf" && k != "idempotency_key" {
			rest[k] = v
		}
	}
	return rest.Encode()
}

// NewKey returns a fresh Idempotency-Key for a form.
func NewKey() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
