package tokens_test

import (
	"bytes"
	"testing"

	"github.com/revisor-sm/revisor/internal/tokens"
)

// TestSealedAnswer: a sealed answer opens with its credential and key
// only, never holds the plain text, and is not the same twice (a fresh
// nonce); an answer kept before sealing passes as it is; a damaged one
// does not open.
func TestSealedAnswer(t *testing.T) {
	t.Parallel()
	plain := []byte(`{"token":"s3cret-token"}`)
	a, err := tokens.SealAnswer("Bearer abc", "key-1", plain)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := tokens.SealAnswer("Bearer abc", "key-1", plain)
	if bytes.Contains(a, []byte("s3cret")) || bytes.Equal(a, b) {
		t.Errorf("sealed %q (and again %q): holds the secret, or is the same twice", a, b)
	}
	if got, ok := tokens.OpenAnswer("Bearer abc", "key-1", a); !ok || !bytes.Equal(got, plain) {
		t.Errorf("open with its credential and key = %q, %v", got, ok)
	}
	for _, c := range []struct{ cred, key string }{{"Bearer abd", "key-1"}, {"Bearer abc", "key-2"}, {"", "key-1"}} {
		if got, ok := tokens.OpenAnswer(c.cred, c.key, a); ok || got != nil {
			t.Errorf("open with %q, %q = %q, %v; want it closed", c.cred, c.key, got, ok)
		}
	}
	damaged := bytes.Clone(a)
	damaged[len(damaged)-1] ^= 1
	if _, ok := tokens.OpenAnswer("Bearer abc", "key-1", damaged); ok {
		t.Error("a damaged answer opened")
	}
	if _, ok := tokens.OpenAnswer("Bearer abc", "key-1", []byte("sealed1:abc")); ok {
		t.Error("a sealed answer shorter than its nonce opened")
	}
	if got, ok := tokens.OpenAnswer("Bearer abc", "key-1", plain); !ok || !bytes.Equal(got, plain) {
		t.Errorf("an answer kept before sealing = %q, %v; want it as it is", got, ok)
	}
}
