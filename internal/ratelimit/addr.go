package ratelimit

import "net/netip"

// AddrKey is the key under which a client address's failures are counted:
// an IPv4 address as it is, an IPv6 address by its /64 network, since one
// host is given a whole /64 and could otherwise take a fresh budget for
// each of its 2⁶⁴ addresses. Text that is no address is its own key.
func AddrKey(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.Unmap()
	if a.Is4() {
		return a.String()
	}
	p, err := a.WithZone("").Prefix(64)
	if err != nil {
		return ip
	}
	return p.String()
}
