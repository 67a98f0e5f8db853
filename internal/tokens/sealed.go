package tokens

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
)

// Sealed answers.
//
// An answer kept for an idempotent retry can carry a secret (the organizer
// token of a new tournament, a new referee token), while tokens are
// stored only hashed. Such an answer is kept sealed (AES-256-GCM) under a
// key derived from the credential of the caller who sent the command (the
// API's Authorization header, a page session's token) and the
// idempotency key: it opens only for a retry that presents both.

// sealedPrefix marks a sealed answer; answers kept before sealing are
// plain JSON and are given back as they are.
const sealedPrefix = "sealed1:"

// sealKey is the AES key of the answers sealed for credential and key.
func sealKey(credential, key string) []byte {
	h := sha256.Sum256([]byte("revisor idempotent response\x00" + credential + "\x00" + key))
	return h[:]
}

// SealAnswer encrypts an answer for storage under credential and key.
func SealAnswer(credential, key string, plain []byte) ([]byte, error) {
	aead, err := newAEAD(sealKey(credential, key))
	if err != nil {
		return nil, err
	}
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return aead.Seal(append([]byte(sealedPrefix), nonce...), nonce, plain, []byte(key)), nil
}

// OpenAnswer opens an answer SealAnswer sealed under credential and key.
// An answer that is not sealed is given back as it is (ok true); one
// that is sealed but does not open under credential and key (another
// caller's, or damaged) gives ok false.
func OpenAnswer(credential, key string, stored []byte) (answer []byte, ok bool) {
	sealed, isSealed := bytes.CutPrefix(stored, []byte(sealedPrefix))
	if !isSealed {
		return stored, true
	}
	aead, err := newAEAD(sealKey(credential, key))
	if err != nil || len(sealed) < aead.NonceSize() {
		return nil, false
	}
	plain, err := aead.Open(nil, sealed[:aead.NonceSize()], sealed[aead.NonceSize():], []byte(key))
	if err != nil {
		return nil, false
	}
	return plain, true
}

func newAEAD(key []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}
