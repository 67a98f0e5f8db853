package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestDevStartsPrivateCluster: with nothing at the system address, dev
// starts a private cluster with scripts/local-pg.sh, and its stop stops it.
func TestDevStartsPrivateCluster(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("creates a PostgreSQL cluster (about 5 s)")
	}
	if _, err := findUp(localPGScript); err != nil {
		t.Fatalf("%s not found: %v", localPGScript, err)
	}
	// A data folder in /var/tmp, as scripts/run.sh uses: as root the cluster
	// runs as the postgres user, who may not enter the clone's folder (root's
	// home, a mktemp -d folder); and a free port.
	dir, err := os.MkdirTemp(pgDataParent, "revisor-test-pgdata-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil { // MkdirTemp makes it 0700
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	env := mapEnv{"REVISOR_PG_DATA": filepath.Join(dir, "pgdata"), "REVISOR_PG_PORT": fmt.Sprint(freePort(t))}

	var stdout strings.Builder
	u, stop, err := devDatabaseURL(context.Background(), "127.0.0.1:1", env.get, &stdout, io.Discard)
	if err != nil {
		t.Fatalf("devDatabaseURL = %v", err)
	}
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			stop()
		}
	})
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatalf("connect to the private cluster %s: %v", u, err)
	}
	var one int
	if err := conn.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Errorf("SELECT 1 = %d, %v", one, err)
	}
	conn.Close(ctx)
	if !strings.Contains(stdout.String(), "started a private PostgreSQL") {
		t.Errorf("dev printed %q, want it to say it started a private PostgreSQL", stdout.String())
	}
	stop()
	stopped = true
	if answers("127.0.0.1:" + env["REVISOR_PG_PORT"]) {
		t.Errorf("the private cluster still answers after stop")
	}
}

// pgDataParent holds the test's cluster: a folder every user can enter.
const pgDataParent = "/var/tmp"

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// TestLocalPGUnreachableData: as root, a REVISOR_PG_DATA inside a folder the
// postgres user cannot enter is refused with a message that says so, not
// with initdb's failure.
func TestLocalPGUnreachableData(t *testing.T) {
	t.Parallel()
	if os.Getuid() != 0 {
		t.Skip("only root runs the cluster as another user")
	}
	script, err := findUp(localPGScript)
	if err != nil {
		t.Fatalf("%s not found: %v", localPGScript, err)
	}
	closed := t.TempDir() // 0700, root's
	cmd := exec.Command(script, "start")
	cmd.Env = append(os.Environ(), "REVISOR_PG_DATA="+filepath.Join(closed, "sub", "pgdata"), fmt.Sprint("REVISOR_PG_PORT=", freePort(t)))
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "cannot enter") {
		t.Errorf("local-pg.sh start in %s = %v, %q; want an error saying the postgres user cannot enter it", closed, err, out)
	}
}
