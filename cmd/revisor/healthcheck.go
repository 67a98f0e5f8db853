package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// healthcheckTimeout bounds one probe.
const healthcheckTimeout = 5 * time.Second

// healthcheck asks a running server whether it is ready and exits 0 only on
// 200. Container images without curl or wget (distroless) use it as their
// health check.
func healthcheck(ctx context.Context, args []string, env func(string) string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("healthcheck", stderr)
	url := fs.String("url", probeURL(envOr(env, "REVISOR_ADDR", defaultAddr)), "`URL` to probe (default: /readyz at REVISOR_ADDR)")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, healthcheckTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, *url, nil)
	if err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("%s answered %d: %s", *url, resp.StatusCode, body)
	}
	fmt.Fprintln(stdout, "ready")
	return nil
}

// probeURL is the /readyz URL of a server listening on addr; a wildcard host
// is probed on loopback.
func probeURL(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + addr + "/readyz"
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/readyz"
}
