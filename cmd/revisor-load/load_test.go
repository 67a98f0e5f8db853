package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// TestLoad runs a small load against a real server: every submission is
// accepted and the percentiles are printed.
func TestLoad(t *testing.T) {
	const admin = "load-admin-token-0123456789"
	url := startServer(t, admin)
	var out bytes.Buffer
	err := run(context.Background(), []string{"--url", url, "--clients", "8", "--tables", "5", "--games", "4", "--max", "18"},
		mapEnv{"REVISOR_ADMIN_TOKEN": admin}.get, &out)
	if err != nil {
		t.Fatalf("revisor-load: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "load: 18 submissions in") || !strings.Contains(out.String(), ", 0 failed") ||
		!strings.Contains(out.String(), "p99") {
		t.Errorf("load printed %q, want 18 submissions, none failed, and percentiles", out.String())
	}
}

func TestLoadRefusesOtherHosts(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"http://example.com", "http://10.0.0.1:8080", "ftp://127.0.0.1"} {
		err := run(context.Background(), []string{"--url", u, "--admin-token", "x"}, mapEnv{}.get, &bytes.Buffer{})
		if !errors.Is(err, errUsage) {
			t.Errorf("load --url %s = %v, want a usage error", u, err)
		}
	}
}
