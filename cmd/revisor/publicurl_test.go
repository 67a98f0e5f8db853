package main

import (
	"net"
	"testing"
)

func TestParsePublicURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""}, {"http://192.168.1.20:8080", "http://192.168.1.20:8080"}, {"https://club.example/", "https://club.example"},
	} {
		if got, err := parsePublicURL(c.in); err != nil || got != c.want {
			t.Errorf("parsePublicURL(%q) = %q, %v, want %q", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"192.168.1.20:8080", "ftp://x", "http://", "http://x/path", "http://x?q=1", "http://u:p@x"} {
		if got, err := parsePublicURL(in); err == nil {
			t.Errorf("parsePublicURL(%q) = %q, want an error", in, got)
		}
	}
}

func TestDetectPublicURL(t *testing.T) {
	lan := func() net.IP { return net.IPv4(192, 168, 1, 20) }
	none := func() net.IP { return nil }
	for _, c := range []struct {
		addr *net.TCPAddr
		lan  func() net.IP
		want string
	}{
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, lan, ""},
		{&net.TCPAddr{IP: net.IPv4zero, Port: 8080}, lan, "http://192.168.1.20:8080"},
		{&net.TCPAddr{IP: net.IPv6unspecified, Port: 9000}, lan, "http://192.168.1.20:9000"},
		{&net.TCPAddr{IP: net.IPv4zero, Port: 8080}, none, ""},
		{&net.TCPAddr{IP: net.IPv4(10, 0, 0, 5), Port: 8080}, none, "http://10.0.0.5:8080"},
	} {
		if got := detectPublicURL(c.addr, c.lan); got != c.want {
			t.Errorf("detectPublicURL(%v) = %q, want %q", c.addr, got, c.want)
		}
	}
}
