package main

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/internal/dbtest"
)

func TestProbeURL(t *testing.T) {
	t.Parallel()
	tests := []struct{ addr, want string }{
		{"127.0.0.1:8080", "http://127.0.0.1:8080/readyz"},
		{"0.0.0.0:9000", "http://127.0.0.1:9000/readyz"},
		{":8080", "http://127.0.0.1:8080/readyz"},
		{"[::]:8080", "http://127.0.0.1:8080/readyz"},
		{"[::1]:8080", "http://[::1]:8080/readyz"},
		{"revisor.example:80", "http://revisor.example:80/readyz"},
	}
	for _, tt := range tests {
		if got := probeURL(tt.addr); got != tt.want {
			t.Errorf("probeURL(%q) = %q, want %q", tt.addr, got, tt.want)
		}
	}
}

func TestHealthcheck(t *testing.T) {
	t.Parallel()
	r := startRun(t, []string{"serve", "--addr", "127.0.0.1:0"}, mapEnv{"DATABASE_URL": dbtest.NewURL(t), "REVISOR_ADMIN_TOKEN": "x"})
	addr := strings.TrimPrefix(r.url, "http://")
	var out strings.Builder
	if err := run(context.Background(), []string{"healthcheck"}, mapEnv{"REVISOR_ADDR": addr}.get, nil, &out, io.Discard); err != nil || out.String() != "ready\n" {
		t.Errorf("healthcheck of a ready server = %v, printed %q; want nil, ready", err, out.String())
	}
	err := run(context.Background(), []string{"healthcheck", "--url", r.url + "/nope"}, mapEnv{}.get, nil, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("healthcheck of a 404 URL = %v, want an error naming 404", err)
	}
	if err := r.stop(t); err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), []string{"healthcheck"}, mapEnv{"REVISOR_ADDR": addr}.get, nil, io.Discard, io.Discard); err == nil {
		t.Errorf("healthcheck of a stopped server = nil, want an error")
	}
}
