package faulttest

import (
	"bufio"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// haPorts is how many ports from its first one scripts/ha.sh uses.
const haPorts = 13

// HA is the highly available arrangement of scripts/ha.sh on private ports:
// a pg_auto_failover monitor, a primary and a synchronous standby, pgBackRest
// archiving the WAL, two revisor serve processes and HAProxy in front.
type HA struct {
	Dir, Script string
	Port        int // the first port; HAProxy listens on Port+10
	// From the script's env: the one address of the tables, the
	// multi-host URL of the primary, pgBackRest's configuration and the
	// admin token.
	URL, DatabaseURL, PgBackRestConf, AdminToken string
	env                                          []string
	forget                                       func() // unregisters down from onInterrupt
}

// HAPackages lists the Debian packages the arrangement needs that are not
// installed, by the command each provides.
func HAPackages() []string {
	var missing []string
	for cmd, pkg := range map[string]string{"pg_autoctl": "postgresql-15-auto-failover", "haproxy": "haproxy", "pgbackrest": "pgbackrest"} {
		if _, err := exec.LookPath(cmd); err != nil {
			missing = append(missing, pkg)
		}
	}
	return missing
}

// SkipHA skips tb when the arrangement cannot run here: -short, no
// PostgreSQL, not root (PostgreSQL runs as the postgres user), or its
// packages missing and apt-get unable to install them.
func SkipHA(tb testing.TB) {
	tb.Helper()
	Skip(tb)
	if os.Geteuid() != 0 {
		tb.Skip("the HA arrangement runs its servers as the postgres user: run the test as root")
	}
	missing := HAPackages()
	if len(missing) == 0 {
		return
	}
	args := append([]string{"install", "-y", "-q"}, missing...)
	cmd := exec.Command("apt-get", args...)
	cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Skipf("the HA arrangement needs %s, which apt-get could not install: %v\n%s", strings.Join(missing, ", "), err, tail(out, 500))
	}
}

// StartHA starts the arrangement with scripts/ha.sh (script is its path)
// in a new folder under the system's temporary one, the revisor binary bin
// serving, PostgreSQL without fsync (a test's data), extra VAR=value words
// in the environment of both revisor processes. Call Down when done.
func StartHA(script, bin string, serveEnv ...string) (*HA, error) {
	dir, err := os.MkdirTemp("", "revisor-ha-")
	if err != nil {
		return nil, err
	}
	port, err := freeRange(haPorts)
	if err != nil {
		return nil, err
	}
	h := &HA{Dir: dir, Script: script, Port: port, env: []string{"REVISOR_HA_DIR=" + dir,
		"REVISOR_HA_PORT=" + strconv.Itoa(port), "REVISOR_BIN=" + bin, "REVISOR_HA_FSYNC=off",
		"REVISOR_HA_SERVE_ENV=" + strings.Join(serveEnv, " ")}}
	// Before "up": an interruption in the middle of it leaves its first
	// processes running.
	h.forget = onInterrupt(h.down)
	out, err := h.Run("up")
	if err != nil {
		logs, lerr := h.SaveLogs()
		h.Down()
		return nil, fmt.Errorf("%w\nthe logs are kept in %s (%v)", err, logs, lerr)
	}
	vars := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			vars[k] = strings.Trim(v, "'")
		}
	}
	h.URL, h.DatabaseURL = vars["REVISOR_HA_URL"], vars["REVISOR_HA_DATABASE_URL"]
	h.PgBackRestConf, h.AdminToken = vars["REVISOR_HA_PGBACKREST_CONF"], vars["REVISOR_ADMIN_TOKEN"]
	if h.URL == "" || h.DatabaseURL == "" {
		h.Down()
		return nil, fmt.Errorf("scripts/ha.sh up printed no addresses:\n%s", out)
	}
	return h, nil
}

// freeRange returns the first of n consecutive loopback ports that were
// free a moment ago.
func freeRange(n int) (int, error) {
	// Below the kernel's ephemeral range: a port free now stays free for
	// the minutes the arrangement takes to start, whereas one inside it
	// may be taken meanwhile by any outgoing connection or ":0" listener
	// of the tests running beside (a Revisor process once failed to bind).
	top := ephemeralLow() - n
	for range 50 {
		first := 10000 + rand.IntN(top-10000)
		ok := true
		for p := first; p < first+n && ok; p++ {
			ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
			if err != nil {
				ok = false
				continue
			}
			ln.Close()
		}
		if ok {
			return first, nil
		}
	}
	return 0, fmt.Errorf("no %d free consecutive ports found", n)
}

// ephemeralLow is the first port of the kernel's ephemeral range
// (net.ipv4.ip_local_port_range), 32768 where it cannot be read; never
// below 12000, so that freeRange has room.
func ephemeralLow() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 32768
	}
	var low, high int
	if _, err := fmt.Sscan(string(b), &low, &high); err != nil || low < 12000 {
		return 32768
	}
	return low
}

// Run runs scripts/ha.sh with args and returns its standard output.
func (h *HA) Run(args ...string) (string, error) {
	cmd := exec.Command("bash", append([]string{h.Script}, args...)...)
	cmd.Env = append(os.Environ(), h.env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("scripts/ha.sh %s: %w\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out), nil
}

// RevisorURL is the address of Revisor process a or b itself, not
// through HAProxy.
func (h *HA) RevisorURL(name string) string {
	off := 11
	if name == "b" {
		off = 12
	}
	return fmt.Sprintf("http://127.0.0.1:%d", h.Port+off)
}

// Primary is the number (1 or 2) of the node the monitor calls primary.
func (h *HA) Primary() (int, error) {
	out, err := h.Run("primary")
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(out))
}

// KillPrimary SIGKILLs the node that is primary now (its keeper and
// PostgreSQL: a crashed database server) and returns its number.
func (h *HA) KillPrimary() (int, error) {
	p, err := h.Primary()
	if err != nil {
		return 0, err
	}
	_, err = h.Run("kill-node", strconv.Itoa(p))
	return p, err
}

// WaitPrimary waits up to d for a primary other than not (0: any).
func (h *HA) WaitPrimary(not int, d time.Duration) (int, error) {
	deadline := time.Now().Add(d)
	for {
		p, err := h.Primary()
		if err == nil && p != not {
			return p, nil
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("no new primary within %s (last: %d, %v)", d, p, err)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// Log is the end of one of the arrangement's logs (node1, revisor-a, …).
func (h *HA) Log(name string, n int) string {
	b, _ := os.ReadFile(filepath.Join(h.Dir, "log", name+".log"))
	return string(tail(b, n))
}

// SaveLogs copies the arrangement's logs into a new folder under the
// system's temporary one (they outlive Down) and returns its path.
func (h *HA) SaveLogs() (string, error) {
	dst, err := os.MkdirTemp("", "revisor-ha-logs-")
	if err != nil {
		return "", err
	}
	return dst, os.CopyFS(dst, os.DirFS(filepath.Join(h.Dir, "log")))
}

// Down stops everything and removes the folder.
func (h *HA) Down() {
	h.down()
	h.forget()
}

// down is Down without unregistering its teardown (it is the teardown).
func (h *HA) down() {
	if _, err := h.Run("down", "--purge"); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	os.RemoveAll(h.Dir)
}

// Restore restores the arrangement's pgBackRest repository as it was at
// target into a new cluster (point-in-time recovery: the base backup, then
// the archived WAL up to target), starts it on a free port without
// archiving (it must not write into the repository it came from) and waits
// until recovery has ended and it takes writes. Call Remove when done.
func (h *HA) Restore(target time.Time) (*Cluster, error) {
	bin, err := BinDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "revisor-restore-")
	if err != nil {
		return nil, err
	}
	c := &Cluster{Dir: dir, bin: bin, owner: "postgres"}
	if err := chownPostgres(dir); err != nil {
		return nil, err
	}
	// The WAL up to target must be in the repository: the check switches
	// to a new WAL file and waits until it is archived.
	if err := c.pg("pgbackrest", "--config="+h.PgBackRestConf, "--stanza=revisor", "check"); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := c.pg("pgbackrest", "--config="+h.PgBackRestConf, "--stanza=revisor", "--pg1-path="+dir,
		"--type=time", "--target="+target.UTC().Format("2006-01-02 15:04:05.000000-07"), "--target-action=promote",
		"--delta", "--force", "restore"); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if c.Port, err = FreePort(); err != nil {
		c.Remove()
		return nil, err
	}
	c.Options = "-c archive_mode=off -c synchronous_standby_names='' -c shared_preload_libraries='' -c max_connections=300"
	if err := c.Start(); err != nil {
		c.Remove()
		return nil, err
	}
	return c, c.waitPromoted(2 * time.Minute)
}

// waitPromoted waits until the cluster has left recovery.
func (c *Cluster) waitPromoted(d time.Duration) error {
	deadline := time.Now().Add(d)
	for {
		cmd := exec.Command(filepath.Join(c.bin, "psql"), "-X", "-qAt", "-h", "127.0.0.1", "-p", strconv.Itoa(c.Port),
			"-U", "postgres", "-c", "SELECT pg_is_in_recovery()")
		out, err := cmd.Output()
		if err == nil && strings.TrimSpace(string(out)) == "f" {
			return nil
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(filepath.Join(c.Dir, "server.log"))
			return errors.Join(fmt.Errorf("the restored cluster did not leave recovery within %s (%s, %v)\n%s", d, out, err, tail(b, 2000)))
		}
		time.Sleep(200 * time.Millisecond)
	}
}
