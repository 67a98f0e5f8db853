package ratelimit_test

import (
	"testing"

	"github.com/revisor-sm/revisor/internal/ratelimit"
)

// TestAddrKey: IPv6 addresses of one /64 share a key (issue 25: one host
// holds a /64 and would otherwise have 2⁶⁴ budgets); IPv4 keeps each.
func TestAddrKey(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"192.0.2.7", "192.0.2.7"},
		{"::ffff:192.0.2.7", "192.0.2.7"},
		{"2001:db8:1:2::1", "2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"},
		{"2001:db8:1:3::1", "2001:db8:1:3::/64"},
		{"fe80::1%eth0", "fe80::/64"},
		{"not an address", "not an address"},
	} {
		if got := ratelimit.AddrKey(tc.in); got != tc.want {
			t.Errorf("AddrKey(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
