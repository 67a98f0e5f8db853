package main

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// The public URL is the address phones and printed cards use to reach the
// server: every QR code, card, poster and link carries it. On a laptop at a
// club night the server listens on the LAN (0.0.0.0:8080) and the URL is
// the laptop's LAN address, which the phones on the venue's Wi-Fi reach;
// behind a proxy it is the proxy's https:// address.

// parsePublicURL checks a --public-url: http or https, a host, no path,
// query or fragment. The answer has no trailing slash.
func parsePublicURL(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		strings.Trim(u.Path, "/") != "" || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("public URL %q: want http(s)://host[:port], such as http://192.168.1.20:8080", s)
	}
	return u.Scheme + "://" + u.Host, nil
}

// detectPublicURL is the public URL when none is given: empty (each
// request's own host) when the server listens on loopback only, else
// http:// and the machine's LAN address (lanIP) with the listening port.
func detectPublicURL(listen net.Addr, lanIP func() net.IP) string {
	tcp, ok := listen.(*net.TCPAddr)
	if !ok || tcp.IP.IsLoopback() || tcp.Port == 0 {
		return ""
	}
	ip := tcp.IP
	if ip.IsUnspecified() {
		if ip = lanIP(); ip == nil {
			return ""
		}
	}
	return "http://" + net.JoinHostPort(ip.String(), fmt.Sprint(tcp.Port))
}

// lanIP is the machine's address on its local network: the first private
// IPv4 address of an interface that is up, nil when there is none.
func lanIP() net.IP {
	ifs, err := net.Interfaces()
	if err != nil {
		return nil
	}
	for _, ifc := range ifs {
		if ifc.Flags&net.FlagUp == 0 || ifc.Flags&net.FlagLoopback != 0 {
			continue
		}
		addrs, _ := ifc.Addrs()
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && n.IP.IsPrivate() {
				return n.IP.To4()
			}
		}
	}
	return nil
}
