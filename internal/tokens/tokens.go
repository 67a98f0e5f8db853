// Package tokens makes and checks Revisor's secrets: organizer and
// referee tokens (random, stored as SHA-256 only), tables' codes (derived
// from a tournament's key by HMAC, never stored) and random bytes for ids.
package tokens

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"io"
	"strings"
)

// Token and code scheme.
//
// The organizer token is 32 random bytes, base64url without padding (43
// characters). Only its SHA-256 is stored; a presented token is hashed and
// compared with subtle.ConstantTimeCompare.
//
// Table codes are not stored at all: each tournament has a 32-byte random
// code key (kept in the database, never shown), and the code of table t in
// round n is derived as HMAC-SHA256(key, "revisor-table-code|n|t"), mapped
// without bias onto CodeLength characters of CodeAlphabet. The organizer can
// therefore fetch the codes again at any time (to print table cards), a
// code is valid only for its own round and table, and a presented code is
// verified by recomputing it and comparing in constant time.
const (
	// CodeAlphabet has no 0/O, 1/I/L: codes are read off paper.
	CodeAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
	// CodeLength is the number of characters in a table code (about 40 bits).
	CodeLength = 8

	// TokenBytes is the length of a token's random part.
	TokenBytes = 32
	// KeyBytes is the length of a tournament's code key.
	KeyBytes = 32
)

// NewSecret returns n random bytes from r.
func NewSecret(r io.Reader, n int) ([]byte, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, fmt.Errorf("reading randomness: %w", err)
	}
	return b, nil
}

// NewOrganizerToken returns a fresh organizer token and its hash.
func NewOrganizerToken(r io.Reader) (token string, hash []byte, err error) {
	b, err := NewSecret(r, TokenBytes)
	if err != nil {
		return "", nil, err
	}
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, HashToken(token), nil
}

// HashToken returns the SHA-256 of a token, the only form in which tokens
// are stored.
func HashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// TokenMatches reports whether token hashes to hash, in constant time.
func TokenMatches(token string, hash []byte) bool {
	return subtle.ConstantTimeCompare(HashToken(token), hash) == 1
}

// TableCode derives the code of table t in round n from a tournament's code key.
func TableCode(key []byte, round, table int) string {
	var out strings.Builder
	for block := 0; out.Len() < CodeLength; block++ {
		m := hmac.New(sha256.New, key)
		fmt.Fprintf(m, "revisor-table-code|%d|%d|%d", round, table, block)
		for _, b := range m.Sum(nil) {
			// 248 = 8*31: bytes below it map evenly onto the alphabet.
			if b < 248 && out.Len() < CodeLength {
				out.WriteByte(CodeAlphabet[int(b)%len(CodeAlphabet)])
			}
		}
	}
	return out.String()
}

// NormalizeCode makes a typed code comparable: upper case, without spaces
// and dashes. It does not validate.
func NormalizeCode(s string) string {
	s = strings.ToUpper(s)
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return -1
		}
		return r
	}, s)
}

// LooksLikeCode reports whether s (normalized) has the shape of a table code.
func LooksLikeCode(s string) bool {
	if len(s) != CodeLength {
		return false
	}
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(CodeAlphabet, s[i]) < 0 {
			return false
		}
	}
	return true
}

// CodeMatches reports, in constant time, whether code (normalized) is the
// code of table t in round n.
func CodeMatches(key []byte, round, table int, code string) bool {
	return subtle.ConstantTimeCompare([]byte(TableCode(key, round, table)), []byte(code)) == 1
}
