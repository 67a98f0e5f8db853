package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Local PostgreSQL for dev: the system server when one answers on 5432,
// else a private cluster started by scripts/local-pg.sh.
const (
	systemPostgresAddr = "127.0.0.1:5432"
	devDatabase        = "revisor_dev"
	localPGScript      = "scripts/local-pg.sh"
)

// dev is the one-command local run: it finds or starts PostgreSQL, migrates,
// loads the demo data, serves and prints the URL. A cluster it started is
// stopped on exit.
func dev(ctx context.Context, args []string, env func(string) string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("dev", stderr)
	cfg, check := serverFlags(fs, env)
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if err := check(); err != nil {
		return err
	}
	if cfg.databaseURL == "" {
		u, stop, err := devDatabaseURL(ctx, systemPostgresAddr, env, stdout, stderr)
		if err != nil {
			return err
		}
		defer stop()
		cfg.databaseURL = u
	}
	return runServer(ctx, *cfg, stdout, stderr, seedDemo)
}

// devDatabaseURL finds a database for dev: the PostgreSQL at systemAddr if
// it answers (database revisor_dev, created when missing), else a private
// cluster in the project's .local/pgdata (REVISOR_PG_DATA and
// REVISOR_PG_PORT of env are passed to the script). stop stops a cluster
// that dev started, and does nothing otherwise.
func devDatabaseURL(ctx context.Context, systemAddr string, env func(string) string, stdout, stderr io.Writer) (u string, stop func(), err error) {
	if answers(systemAddr) {
		u, err := ensureDatabase(ctx, "postgres://postgres@"+systemAddr+"/postgres?sslmode=disable", devDatabase)
		if err != nil {
			return "", nil, fmt.Errorf("PostgreSQL answers on %s but: %w (set DATABASE_URL to a database you can use)", systemAddr, err)
		}
		fmt.Fprintf(stdout, "revisor: using the PostgreSQL on %s, database %s\n", systemAddr, devDatabase)
		return u, func() {}, nil
	}
	script, err := findUp(localPGScript)
	if err != nil {
		return "", nil, fmt.Errorf("no PostgreSQL on %s and no %s here to start one: run revisor dev in the repository, or set DATABASE_URL", systemAddr, localPGScript)
	}
	pg := localPG{script: script, env: env, stderr: stderr}
	u, err = pg.run(ctx, "start")
	if err != nil {
		return "", nil, err
	}
	fmt.Fprintf(stdout, "revisor: started a private PostgreSQL: %s\n", u)
	stop = func() {
		stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer cancel()
		if _, err := pg.run(stopCtx, "stop"); err != nil {
			fmt.Fprintln(stderr, "revisor: stop PostgreSQL:", err)
		}
	}
	return u, stop, nil
}

// answers reports whether something accepts TCP connections at addr.
func answers(addr string) bool {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	conn.Close()
	return true
}

// ensureDatabase creates database name on the server of adminURL unless it
// exists, and returns its URL.
func ensureDatabase(ctx context.Context, adminURL, name string) (string, error) {
	conn, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	var exists bool
	err = conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists)
	if err == nil && !exists {
		_, err = conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize())
	}
	if err != nil {
		return "", err
	}
	u, err := url.Parse(adminURL)
	if err != nil {
		return "", err
	}
	u.Path = "/" + name
	return u.String(), nil
}

// findUp looks for rel in the working directory and its parents.
func findUp(rel string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, rel)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}

// localPG runs scripts/local-pg.sh.
type localPG struct {
	script string
	env    func(string) string
	stderr io.Writer
}

// run runs the script with op and returns the last line it printed (the URL
// for start). Its progress goes to stderr.
func (pg localPG) run(ctx context.Context, op string) (string, error) {
	var out bytes.Buffer
	cmd := exec.CommandContext(context.WithoutCancel(ctx), "bash", pg.script, op)
	cmd.Stdout, cmd.Stderr = &out, pg.stderr
	cmd.Env = os.Environ()
	for _, name := range []string{"REVISOR_PG_DATA", "REVISOR_PG_PORT"} {
		if v := pg.env(name); v != "" {
			cmd.Env = append(cmd.Env, name+"="+v)
		}
	}
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s %s: %w", pg.script, op, err)
	}
	var last string
	for sc := bufio.NewScanner(&out); sc.Scan(); {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			last = line
		}
	}
	if op == "start" && !strings.HasPrefix(last, "postgres://") {
		return "", errors.New(pg.script + " start printed no postgres:// URL")
	}
	return last, nil
}
