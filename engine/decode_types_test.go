package engine_test

import (
	"errors"
	"testing"

	"github.com/revisor-sm/revisor/engine"
)

// TestDecodeWrongTypes checks that values of the wrong JSON type are counted
// apart from other decoding problems, so that callers can tell a malformed
// request (400) from an invalid record (a result with valid false).
func TestDecodeWrongTypes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want int
	}{
		{`{"players": "anna", "dealer": "anna", "hands": {}, "exchanges": [[],[],[]], "announcements": [[],[]], "tricks": []}`, 1},
		{`{"players": ["anna","bo","cia"], "dealer": 7, "hands": [], "exchanges": [[],[],[]], "announcements": [[],[]], "tricks": []}`, 2},
		{`{"players": ["anna","bo","cia"], "dealer": "anna", "scores": {"anna": 1.5}, "hands": {}, "exchanges": [[],[],[]], "announcements": [[],[]], "tricks": []}`, 1},
		{`{"players": ["anna","bo","cia"], "dealer": "anna", "hands": {"anna": ["Zz"]}, "exchanges": [[],[],[]], "announcements": [[],[]], "tricks": []}`, 0},
		{`{"players": ["anna","bo","cia"], "dealer": "anna", "hands": {}}`, 0},
	}
	for _, tt := range tests {
		_, err := engine.DecodeDeal([]byte(tt.in))
		var derr *engine.DecodeError
		if !errors.As(err, &derr) {
			t.Errorf("DecodeDeal(%s) = %v, want a *DecodeError", tt.in, err)
			continue
		}
		if derr.WrongTypes != tt.want {
			t.Errorf("DecodeDeal(%s).WrongTypes = %d, want %d (problems %+v)", tt.in, derr.WrongTypes, tt.want, derr.Problems)
		}
	}
}
