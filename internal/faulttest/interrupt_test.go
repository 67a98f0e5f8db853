package faulttest_test

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/internal/faulttest"
)

// TestInterruptStopsClusters runs this test binary again as a helper that
// starts a cluster and waits, stops it with SIGTERM as scripts/test.sh
// stops the fault tests when another pass failed (with the helper's output
// unread, as go test's is then), and checks that the
// cluster's postmaster (in a session of its own, which the signal does not
// reach) is gone and its folder removed (HandleInterrupts).
func TestInterruptStopsClusters(t *testing.T) {
	if os.Getenv("REVISOR_FAULTTEST_HELPER") == "interrupt" {
		c, err := faulttest.NewCluster()
		if err != nil {
			t.Fatal(err)
		}
		defer c.Remove()
		os.Stdout.WriteString("cluster " + c.Dir + "\n")
		time.Sleep(time.Minute) // until the signal
		t.Fatal("no signal came within a minute")
	}
	t.Parallel()
	faulttest.Skip(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestInterruptStopsClusters$", "-test.count=1")
	cmd.Env = append(os.Environ(), "REVISOR_FAULTTEST_HELPER=interrupt")
	// Its output and errors in one pipe, as go test reads a test's.
	out, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	defer cmd.Process.Kill()
	var dir string
	for sc := bufio.NewScanner(out); sc.Scan(); {
		if d, ok := strings.CutPrefix(sc.Text(), "cluster "); ok {
			dir = d
			break
		}
	}
	if dir == "" {
		t.Fatal("the helper started no cluster")
	}
	// go test, which reads a test's output, is stopped by the same signal:
	// the helper's writes then meet a closed pipe.
	out.Close()
	pm, err := faulttest.PostmasterPID(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil {
		t.Errorf("the helper stopped by SIGTERM exited 0, want 1")
	}
	deadline := time.Now().Add(30 * time.Second)
	for syscall.Kill(pm, 0) == nil {
		if time.Now().After(deadline) {
			syscall.Kill(pm, syscall.SIGKILL)
			os.RemoveAll(dir)
			t.Fatalf("the postmaster %d of %s runs 30 s after its test process was stopped", pm, dir)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		os.RemoveAll(dir)
		t.Errorf("the cluster's folder %s is still there (%v)", dir, err)
	}
}
