package tokens_test

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/internal/tokens"
)

func TestTableCode(t *testing.T) {
	t.Parallel()
	key := bytes.Repeat([]byte{7}, 32)
	seen := map[string]bool{}
	for round := 1; round <= 10; round++ {
		for table := 1; table <= 250; table++ {
			code := tokens.TableCode(key, round, table)
			if !tokens.LooksLikeCode(code) || len(code) != tokens.CodeLength {
				t.Fatalf("TableCode(%d, %d) = %q, want %d characters of %s", round, table, code, tokens.CodeLength, tokens.CodeAlphabet)
			}
			if seen[code] {
				t.Fatalf("TableCode(%d, %d) = %q, given before", round, table, code)
			}
			seen[code] = true
			if again := tokens.TableCode(key, round, table); again != code {
				t.Fatalf("TableCode(%d, %d) = %q then %q, want the same", round, table, code, again)
			}
		}
	}
	other := bytes.Repeat([]byte{8}, 32)
	if tokens.TableCode(other, 1, 1) == tokens.TableCode(key, 1, 1) {
		t.Errorf("two keys give the same code")
	}
	code := tokens.TableCode(key, 3, 4)
	typed := strings.ToLower(code[:4]) + "-" + code[4:]
	if n := tokens.NormalizeCode(typed); !tokens.CodeMatches(key, 3, 4, n) || tokens.CodeMatches(key, 3, 5, n) {
		t.Errorf("CodeMatches(NormalizeCode(%q)) at table 4 and 5 = wrong", typed)
	}
}

func TestTableCodeAlphabetIsUnambiguous(t *testing.T) {
	t.Parallel()
	for _, c := range "01ILO" {
		if strings.ContainsRune(tokens.CodeAlphabet, c) {
			t.Errorf("CodeAlphabet holds %q", c)
		}
	}
	if len(tokens.CodeAlphabet) != 31 {
		t.Errorf("len(CodeAlphabet) = %d, want 31", len(tokens.CodeAlphabet))
	}
}

func TestOrganizerToken(t *testing.T) {
	t.Parallel()
	r := rand.NewChaCha8([32]byte{1})
	tok, hash, err := tokens.NewOrganizerToken(r)
	if err != nil || len(tok) != 43 || !bytes.Equal(hash, tokens.HashToken(tok)) {
		t.Fatalf("NewOrganizerToken = %q, %x, %v; want 43 characters and their hash", tok, hash, err)
	}
	if !tokens.TokenMatches(tok, hash) || tokens.TokenMatches(tok+"x", hash) {
		t.Errorf("TokenMatches accepts the wrong token or refuses the right one")
	}
	tok2, _, _ := tokens.NewOrganizerToken(r)
	if tok2 == tok {
		t.Errorf("two tokens in a row are equal")
	}
}
