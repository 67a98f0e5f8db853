package tournament

import (
	"errors"

	"github.com/revisor-sm/revisor/internal/canonjson"
)

// CanonicalJSON is canonjson.Canonical with the domain's error for a body
// that is not JSON (malformed_json), so that a record sent twice compares
// equal byte for byte.
func CanonicalJSON(data []byte) ([]byte, error) {
	out, err := canonjson.Canonical(data)
	if se := (*canonjson.SyntaxError)(nil); errors.As(err, &se) {
		return nil, Errorf(KindInvalid, CodeMalformedJSON, "%s", se.Error())
	}
	return out, err
}
