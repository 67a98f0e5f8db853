package api

import (
	"net/http/httptest"
	"testing"
)

// TestRecorderDropsLargeAnswers (issue 13, item 1): an answer larger than
// MaxStoredResponse is passed on whole but not kept, so it is neither held
// twice in memory nor stored.
func TestRecorderDropsLargeAnswers(t *testing.T) {
	w := httptest.NewRecorder()
	rec := &recorder{ResponseWriter: w}
	chunk := make([]byte, 1<<20)
	for range MaxStoredResponse/len(chunk) + 1 {
		rec.Write(chunk)
	}
	if rec.size != MaxStoredResponse+len(chunk) || rec.body.Len() != 0 || w.Body.Len() != rec.size {
		t.Errorf("after %d bytes: size %d, kept %d, passed on %d; want the size counted, nothing kept, all passed on",
			MaxStoredResponse+len(chunk), rec.size, rec.body.Len(), w.Body.Len())
	}
	if rec.body.Cap() != 0 {
		t.Errorf("the recorder still holds a buffer of %d bytes", rec.body.Cap())
	}
}
