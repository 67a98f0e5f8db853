package tournament

import (
	"crypto/sha256"
	"testing"
	"time"
)

// TestOrganizerCacheBounds: an entry lives organizerCacheFor, and the
// cache holds at most maxCachedOrganizers tokens.
func TestOrganizerCacheBounds(t *testing.T) {
	t.Parallel()
	var c organizerCache
	t0 := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	h := sha256.Sum256([]byte("token"))
	c.put(h, "t1", t0)
	if id, ok := c.get(h, t0.Add(organizerCacheFor-time.Second)); !ok || id != "t1" {
		t.Errorf("within its life: %q, %v; want t1", id, ok)
	}
	if _, ok := c.get(h, t0.Add(organizerCacheFor)); ok {
		t.Errorf("an entry outlived organizerCacheFor")
	}
	for i := range 3 * maxCachedOrganizers {
		c.put(sha256.Sum256([]byte{byte(i), byte(i >> 8)}), "t", t0)
		if len(c.entries) > maxCachedOrganizers {
			t.Fatalf("%d entries, want at most %d", len(c.entries), maxCachedOrganizers)
		}
	}
}
