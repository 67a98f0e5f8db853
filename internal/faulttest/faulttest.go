// Package faulttest runs Revisor the way production does, to break it on
// purpose: a private PostgreSQL cluster (initdb and pg_ctl in a temporary
// folder, on a free loopback port, never the system's server) that a test
// may stop and start, and the real revisor binary, built with go build and
// run as a subprocess that a test may kill with SIGKILL.
//
// The fault tests themselves live beside it (faults_test.go); they skip
// when no PostgreSQL server binaries are installed or with -short.
package faulttest

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// ErrNoPostgres is returned when no PostgreSQL server binaries exist.
var ErrNoPostgres = errors.New("no PostgreSQL server binaries in /usr/lib/postgresql/*/bin")

// Cluster is a private PostgreSQL cluster on 127.0.0.1.
type Cluster struct {
	Dir  string // data folder (and unix socket folder)
	Port int
	bin  string
	// owner runs the server binaries: "postgres" when the tests run as root
	// (PostgreSQL refuses root), else "".
	owner string
	// Options are more server options for Start ("-c name=value …").
	Options string
	// forget unregisters the cluster's teardown on an interruption
	// (onInterrupt), registered by its first Start.
	forget func()
}

// BinDir returns the newest /usr/lib/postgresql/*/bin with initdb.
func BinDir() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) < version(dirs[j]) })
	for i := len(dirs) - 1; i >= 0; i-- {
		if _, err := os.Stat(filepath.Join(dirs[i], "initdb")); err == nil {
			return dirs[i], nil
		}
	}
	return "", ErrNoPostgres
}

func version(dir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return v
}

// FreePort returns a loopback TCP port that was free a moment ago.
func FreePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// NewCluster creates and starts a cluster in a new temporary folder. Call
// Remove when done.
func NewCluster() (*Cluster, error) {
	bin, err := BinDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "revisor-faulttest-pg-")
	if err != nil {
		return nil, err
	}
	c := &Cluster{Dir: dir, bin: bin}
	if os.Geteuid() == 0 {
		c.owner = "postgres"
		if err := chownPostgres(dir); err != nil {
			return nil, err
		}
	}
	if err := c.pg("initdb", "-D", dir, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C",
		"--no-instructions", "--no-sync"); err != nil {
		c.Remove()
		return nil, err
	}
	if c.Port, err = FreePort(); err != nil {
		c.Remove()
		return nil, err
	}
	if err := c.Start(); err != nil {
		c.Remove()
		return nil, err
	}
	return c, nil
}

// chownPostgres gives dir to the postgres user.
func chownPostgres(dir string) error {
	u, err := user.Lookup("postgres")
	if err != nil {
		return fmt.Errorf("running as root needs the postgres user: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return os.Chown(dir, uid, gid)
}

// pg runs a server binary as the cluster's owner; a name with a slash, or
// one not among the server binaries, is run as it is (pgbackrest).
func (c *Cluster) pg(name string, args ...string) error {
	path := filepath.Join(c.bin, name)
	if _, err := os.Stat(path); err != nil {
		path = name
	}
	cmd := exec.Command(path, args...)
	if c.owner != "" {
		cmd = exec.Command("runuser", append([]string{"-u", c.owner, "--", path}, args...)...)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, out)
	}
	return nil
}

// Start starts the cluster and waits until it accepts connections.
func (c *Cluster) Start() error {
	if c.forget == nil {
		c.forget = onInterrupt(c.remove)
	}
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200 %s", c.Port, c.Dir, c.Options)
	err := c.pg("pg_ctl", "-D", c.Dir, "-l", filepath.Join(c.Dir, "server.log"), "-w", "-t", "60", "-o", opts, "start")
	if err != nil {
		b, _ := os.ReadFile(filepath.Join(c.Dir, "server.log"))
		return fmt.Errorf("%w\nserver.log (end):\n%s", err, tail(b, 3000))
	}
	return nil
}

// Stop stops the cluster the way an operator or a crash would: "fast"
// ends sessions at once (clients get admin_shutdown), "immediate" is a crash.
func (c *Cluster) Stop(mode string) error {
	return c.pg("pg_ctl", "-D", c.Dir, "-m", mode, "-w", "-t", "60", "stop")
}

// Pause freezes the cluster with SIGSTOP (the postmaster and every backend):
// connections stay open but nothing answers, as in a network partition or
// a stalled virtual machine. Resume undoes it.
func (c *Cluster) Pause() error { return c.signal(syscall.SIGSTOP) }

// Resume continues a paused cluster with SIGCONT.
func (c *Cluster) Resume() error { return c.signal(syscall.SIGCONT) }

// signal sends sig to the postmaster and its children.
func (c *Cluster) signal(sig syscall.Signal) error {
	pm, err := PostmasterPID(c.Dir)
	if err != nil {
		return err
	}
	pids := []int{pm}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, st := range stats {
		b, err := os.ReadFile(st)
		if err != nil {
			continue
		}
		// pid (comm) state ppid …: comm may hold spaces, so read after ")".
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(pm) {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(st)))
			pids = append(pids, pid)
		}
	}
	for _, pid := range pids {
		if err := syscall.Kill(pid, sig); err != nil && pid == pm {
			return err
		}
	}
	return nil
}

// PostmasterPID reads the process id of the postmaster of the cluster in
// dir (the first line of its postmaster.pid).
func PostmasterPID(dir string) (int, error) {
	b, err := os.ReadFile(filepath.Join(dir, "postmaster.pid"))
	if err != nil {
		return 0, err
	}
	pm, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]))
	if err != nil {
		return 0, fmt.Errorf("postmaster.pid: %w", err)
	}
	return pm, nil
}

// Remove stops the cluster if it runs and deletes its folder.
func (c *Cluster) Remove() {
	c.remove()
	if c.forget != nil {
		c.forget()
		c.forget = nil
	}
}

// remove is Remove without unregistering its teardown (it is the
// teardown).
func (c *Cluster) remove() {
	_ = c.Resume()
	_ = c.Stop("immediate")
	os.RemoveAll(c.Dir)
}

// URL is the URL of database db.
func (c *Cluster) URL(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.Port, db)
}

// Bin is the path of a server binary of the cluster's version (pgbench).
func (c *Cluster) Bin(name string) string { return filepath.Join(c.bin, name) }

// builds are the binaries Build made in this process, by package.
var builds struct {
	sync.Mutex
	dir  string
	bins map[string]string
}

// Build compiles the revisor command once per test process and returns
// its path: the fault tests run in parallel, and each built and linked the
// same binary before. pkg is the import path or folder of the command.
// The binaries live in a folder under the system's temporary one until
// RemoveBuilds.
func Build(pkg string) (string, error) {
	builds.Lock()
	defer builds.Unlock()
	if bin, ok := builds.bins[pkg]; ok {
		return bin, nil
	}
	if builds.dir == "" {
		dir, err := os.MkdirTemp("", "revisor-build-")
		if err != nil {
			return "", err
		}
		builds.dir, builds.bins = dir, map[string]string{}
	}
	out := filepath.Join(builds.dir, strconv.Itoa(len(builds.bins)), "revisor")
	cmd := exec.Command("go", "build", "-o", out, pkg)
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %w\n%s", pkg, err, b)
	}
	builds.bins[pkg] = out
	return out, nil
}

// RemoveBuilds removes the binaries Build made (TestMain, after the tests).
func RemoveBuilds() {
	builds.Lock()
	defer builds.Unlock()
	if builds.dir != "" {
		os.RemoveAll(builds.dir)
		builds.dir, builds.bins = "", nil
	}
}

// Server is a revisor serve subprocess on a fixed loopback address, so that
// a restarted server answers where the clients already send.
type Server struct {
	Bin, Addr string
	Env       []string // KEY=value pairs added to the environment
	LogPath   string   // stdout and stderr of every start, appended
	cmd       *exec.Cmd
	done      chan error
}

// URL is the server's base URL.
func (s *Server) URL() string { return "http://" + s.Addr }

// Start starts the server and waits up to 30 s until /healthz answers.
func (s *Server) Start() error {
	log, err := os.OpenFile(s.LogPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer log.Close()
	cmd := exec.Command(s.Bin, "serve", "--addr", s.Addr)
	cmd.Env = append(os.Environ(), s.Env...)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return err
	}
	s.cmd, s.done = cmd, make(chan error, 1)
	// It is in the test process's group, which a signal to the group
	// ends too; not when only the test process is killed.
	pid := cmd.Process.Pid
	forget := onInterrupt(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	go func() { s.done <- cmd.Wait(); forget() }()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-s.done:
			b, _ := os.ReadFile(s.LogPath)
			return fmt.Errorf("revisor serve exited: %v\n%s", err, tail(b, 2000))
		default:
		}
		if resp, err := http.Get(s.URL() + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.Kill()
	return errors.New("revisor serve did not answer /healthz within 30 s")
}

// Kill ends the server with SIGKILL (no draining, no cleanup) and waits
// for it to be gone.
func (s *Server) Kill() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	<-s.done
	s.cmd = nil
}

// Stop ends the server with SIGTERM (a graceful drain) and waits up to 30 s.
func (s *Server) Stop() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		_ = s.cmd.Process.Signal(syscall.SIGKILL)
		<-s.done
	}
	s.cmd = nil
}

// PID is the running server's process id (0 when it is not running).
func (s *Server) PID() int {
	if s.cmd == nil {
		return 0
	}
	return s.cmd.Process.Pid
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

// Skip skips tb when fault tests cannot run here: -short, or no PostgreSQL
// server binaries.
func Skip(tb testing.TB) {
	tb.Helper()
	if testing.Short() {
		tb.Skip("fault tests start PostgreSQL clusters and servers; skipped with -short")
	}
	if _, err := BinDir(); err != nil {
		tb.Skip(err.Error())
	}
}
