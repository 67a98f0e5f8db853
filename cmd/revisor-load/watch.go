package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/revisor-sm/revisor/internal/loadgen"
)

// `revisor-load watch` runs only the viewers of a tournament's public
// pages, until it is interrupted (SIGINT or SIGTERM), then prints what they
// saw and its own CPU time. With --viewers-apart the load run starts its
// viewers this way, in a process of their own: the phones of a hall are
// not in the tables' process, and a thousand viewers' goroutines in it made
// the tables' answers wait behind them on the same two processors, so the
// deals' latency it printed counted the load tool's own scheduling.

// watchConfig is the watch subcommand's command line.
type watchConfig struct {
	url, tournament, views, players string
	viewers                         int
	seed                            uint64
}

func parseWatch(args []string, out io.Writer) (*watchConfig, error) {
	fs := flag.NewFlagSet("revisor-load watch", flag.ContinueOnError)
	fs.SetOutput(out)
	c := &watchConfig{}
	fs.StringVar(&c.url, "url", "http://127.0.0.1:8080", "the server (loopback only)")
	fs.StringVar(&c.tournament, "tournament", "", "the tournament whose pages are watched")
	fs.IntVar(&c.viewers, "viewers", 0, "viewers, each behaving as the pages' script")
	fs.StringVar(&c.views, "view", "standings,seating,screen", "the pages watched, spread over the viewers in turn")
	fs.StringVar(&c.players, "players", "", "with the view player: the players' ids, comma-separated")
	fs.Uint64Var(&c.seed, "seed", 1, "the viewers' seed")
	if err := fs.Parse(args); err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	if c.tournament == "" || c.viewers <= 0 {
		return nil, fmt.Errorf("%w: watch needs --tournament and --viewers > 0", errUsage)
	}
	return c, nil
}

// runWatch watches until ctx ends, then reports.
func runWatch(ctx context.Context, args []string, stdout io.Writer) error {
	c, err := parseWatch(args, stdout)
	if err != nil {
		return err
	}
	var players []string
	if c.players != "" {
		players = strings.Split(c.players, ",")
	}
	cpu0 := procCPU(os.Getpid())
	w, err := loadgen.WatchPages(context.WithoutCancel(ctx), loadgen.ViewerConfig{BaseURL: c.url, Tournament: c.tournament,
		Viewers: c.viewers, Views: strings.Split(c.views, ","), Players: players, Seed: c.seed})
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	fmt.Fprintf(stdout, "viewers: %d on %s, arriving over 5 s, in a process of their own\n", c.viewers, c.views)
	<-ctx.Done()
	w.Stop(10 * time.Second).Print(stdout)
	nice := 0
	if prio, err := syscall.Getpriority(syscall.PRIO_PROCESS, 0); err == nil {
		nice = 20 - prio // Linux's raw getpriority: 20 - niceness
	}
	fmt.Fprintf(stdout, "viewers: their process's CPU time %.1fs, niceness %d\n", (procCPU(os.Getpid()) - cpu0).Seconds(), nice)
	return nil
}

// apartViewers is a watch process started by a load run.
type apartViewers struct {
	cmd *exec.Cmd
	out bytes.Buffer
}

// startApart starts this program's watch subcommand on tournament tid.
func startApart(cfg *loadConfig, tid string, players []string) (*apartViewers, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	a := &apartViewers{}
	args := []string{"watch", "--url", cfg.url, "--tournament", tid, "--viewers", strconv.Itoa(cfg.tour.viewers),
		"--view", cfg.tour.views, "--players", strings.Join(players, ","), "--seed", strconv.FormatUint(cfg.seed, 10)}
	a.cmd = exec.Command(self, args...)
	if cfg.tour.viewersNice != 0 {
		// A phone's work is the phone's: with a niceness the simulated
		// phones take the CPU the server, its database and the tables
		// leave. The process starts with it (nice(1) execs this program),
		// so every thread has it: Linux's setpriority on a running
		// process's id reaches only its first thread, and the Go runtime's
		// threads started before it kept niceness 0.
		nice, err := exec.LookPath("nice")
		if err != nil {
			return nil, fmt.Errorf("--viewers-nice: %w", err)
		}
		a.cmd = exec.Command(nice, append([]string{"-n", strconv.Itoa(cfg.tour.viewersNice), self}, args...)...)
	}
	a.cmd.Stdout, a.cmd.Stderr = &a.out, &a.out
	// Should the load run die, its viewers go with it.
	a.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	if err := a.cmd.Start(); err != nil {
		return nil, err
	}
	return a, nil
}

// stop interrupts the watch process, waits for its report and prints it.
func (a *apartViewers) stop(out io.Writer) {
	_ = a.cmd.Process.Signal(syscall.SIGINT)
	if err := a.cmd.Wait(); err != nil {
		fmt.Fprintf(out, "viewers: their process ended with %v\n", err)
	}
	out.Write(a.out.Bytes())
}
