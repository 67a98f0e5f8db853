package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/revisor-sm/revisor/internal/loadgen"
)

// tourFlags are the flags of `revisor-load --players N`: a whole Chicago-SM
// tournament played through the API, deal by deal.
type tourFlags struct {
	players, gamesPerRound, rounds, retries int
	putShare, sheetShare                    float64
	serverPID                               int
	cpuProfile                              string // --cpuprofile: this tool's own profile
	viewersApart                            bool   // --viewers-apart: the viewers in a watch process
	viewersNice                             int    // --viewers-nice: that process's niceness
	pace                                    time.Duration
	viewers                                 int    // --viewers: phones on the public pages (viewers.go)
	views                                   string // --view
}

func (t *tourFlags) define(fs *flag.FlagSet) {
	fs.IntVar(&t.players, "players", 0, "play a whole SM tournament of this many players, deal by deal "+
		"(POST …/deals), round after round until the final (0: submit whole games of one Swiss round instead)")
	fs.IntVar(&t.gamesPerRound, "games-per-round", 3, "with --players: games each table plays per round")
	fs.IntVar(&t.rounds, "rounds", 0, "with --players: stop after this many rounds (0: play until the final)")
	fs.Float64Var(&t.putShare, "put-share", 0, "with --players: fraction of games sent whole with PUT instead of deal by deal")
	fs.Float64Var(&t.sheetShare, "sheet-share", 0.5, "with --players: fraction of deals sent as score-sheet lines (the rest are full deals)")
	fs.IntVar(&t.retries, "retries", 20, "with --players: retries of a request with the same Idempotency-Key after no answer, 429, 502-504 or a key still in use")
	fs.DurationVar(&t.pace, "pace", 0, "with --players: each table waits a random 0.5-1.5 times this between its deals, "+
		"as players playing a deal do (e.g. 3s); 0 sends each deal as soon as the one before is answered (back to back)")
	fs.IntVar(&t.viewers, "viewers", 0, "with --players: this many viewers on the public pages from the first draw on, each "+
		"behaving as the pages' script (one event stream, a fetch when its page changed, one in flight, with the ETag)")
	fs.BoolVar(&t.viewersApart, "viewers-apart", false, "with --viewers: run the viewers in a process of their own "+
		"(revisor-load watch), not among the tables' clients, whose answers would wait behind them")
	fs.IntVar(&t.viewersNice, "viewers-nice", 0, "with --viewers-apart: the viewers' process's niceness (0-19; e.g. 10: "+
		"the simulated phones take what CPU the server, its database and the tables leave, as phones of their own would)")
	fs.StringVar(&t.views, "view", "standings,seating,screen", "with --viewers: the pages the viewers watch, spread over them in turn "+
		"(standings, seating, screen, player)")
	fs.IntVar(&t.serverPID, "server-pid", 0, "sample this local process's CPU time (and with --players its resident memory) during the run (Linux)")
	fs.StringVar(&t.cpuProfile, "cpuprofile", "", "with --players: write this tool's own CPU profile (its tables and viewers) to the file")
}

// runTournamentLoad plays a tournament with loadgen and prints what the
// clients saw per endpoint, the submission rate, the machine's load
// average and, with --server-pid, the server's memory.
func runTournamentLoad(ctx context.Context, cfg *loadConfig, stdout io.Writer) error {
	t := cfg.tour
	if t.putShare < 0 || t.putShare > 1 || t.sheetShare < 0 || t.sheetShare > 1 || t.rounds < 0 || t.retries < 0 || t.pace < 0 {
		return fmt.Errorf("%w: --put-share and --sheet-share 0-1, --rounds, --retries and --pace ≥ 0", errUsage)
	}
	if t.viewersNice < 0 || t.viewersNice > 19 || (t.viewersNice != 0 && !t.viewersApart) {
		return fmt.Errorf("%w: --viewers-nice is 0-19, and needs --viewers-apart", errUsage)
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.duration)
	defer cancel()
	mem := sampleRSS(ctx, t.serverPID)
	cpu0, self0 := procCPU(t.serverPID), procCPU(os.Getpid())
	if t.cpuProfile != "" {
		stop, err := startCPUProfile(t.cpuProfile)
		if err != nil {
			return fmt.Errorf("%w: --cpuprofile: %v", errUsage, err)
		}
		defer stop()
	}
	renders0 := pageRenders(cfg.url)
	fmt.Fprintf(stdout, "load: %s; load average before: %s\n", machine(), loadAverage())
	crowd := newCrowd(ctx, cfg, stdout)
	res, err := loadgen.Run(ctx, loadgen.Config{BaseURL: cfg.url, AdminToken: cfg.adminToken, Players: t.players,
		GamesPerRound: t.gamesPerRound, Clients: cfg.clients, Rounds: t.rounds, Seed: cfg.seed, PutShare: t.putShare,
		SheetShare: t.sheetShare, Retries: t.retries, Pace: t.pace, Progress: stdout, Drawn: crowd.drawn})
	crowd.stop(stdout, res, renders0)
	cancel()
	if res == nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	res.Stats.Print(stdout, res.Playing)
	deals, games := res.Submissions()
	status := fmt.Sprintf("%d round(s) closed", res.RoundsPlayed)
	if res.Finished {
		status = fmt.Sprintf("finished after %d rounds, champion %s", res.RoundsPlayed, res.Champion)
	}
	fmt.Fprintf(stdout, "load: tournament %s (%d players) %s in %.1fs\n", res.TournamentID, t.players, status, res.Elapsed.Seconds())
	fmt.Fprintf(stdout, "load: acknowledged %d deals + %d whole games in %.1fs of play: %.0f submissions/s; %d given up\n",
		deals, games, res.Playing.Seconds(), float64(deals+games)/max(res.Playing.Seconds(), 1e-9), len(res.Failures))
	fmt.Fprintf(stdout, "load: load average after: %s\n", loadAverage())
	if cpu := procCPU(t.serverPID) - cpu0; t.serverPID > 0 && cpu > 0 && deals+games > 0 {
		requests := 0
		for _, name := range res.Stats.Names() {
			requests += res.Stats.Endpoint(name).Requests()
		}
		fmt.Fprintf(stdout, "load: server pid %d CPU time %.1fs: %.2f ms per acknowledged submission, %.2f ms per request "+
			"(%d requests of every endpoint, confirmations included; the database's CPU not counted)\n",
			t.serverPID, cpu.Seconds(), float64(cpu.Microseconds())/1000/float64(deals+games),
			float64(cpu.Microseconds())/1000/float64(max(requests, 1)), requests)
	}
	// The tool's own CPU: its tables and its viewers run on the server's
	// machine, and what they take the server and the database do not get.
	fmt.Fprintf(stdout, "load: this tool's CPU time %.1fs (its tables and viewers)\n", (procCPU(os.Getpid()) - self0).Seconds())
	if peak, hwm := mem(); peak > 0 {
		fmt.Fprintf(stdout, "load: server pid %d resident memory: peak sampled %.1f MiB, high-water mark %.1f MiB\n",
			t.serverPID, float64(peak)/(1<<20), float64(hwm)/(1<<20))
	}
	return err
}

// loadAverage is /proc/loadavg's first three fields, or "unknown".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// machine names the processor count, for the figures' context.
func machine() string {
	return fmt.Sprintf("%d cpu(s), GOMAXPROCS %d", runtime.NumCPU(), runtime.GOMAXPROCS(0))
}

// sampleRSS samples the resident memory of process pid every 100 ms until
// ctx ends; the returned function gives the peak sampled and the kernel's
// high-water mark (VmHWM), in bytes. pid 0 samples nothing.
func sampleRSS(ctx context.Context, pid int) func() (peak, hwm int64) {
	if pid <= 0 {
		return func() (int64, int64) { return 0, 0 }
	}
	var mu sync.Mutex
	var peak int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			if v := procStatus(pid, "VmRSS:"); v > 0 {
				mu.Lock()
				peak = max(peak, v)
				mu.Unlock()
			}
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	return func() (int64, int64) {
		<-done
		mu.Lock()
		defer mu.Unlock()
		return peak, procStatus(pid, "VmHWM:")
	}
}

// procStatus reads a "kB" field of /proc/pid/status in bytes (0 when
// unreadable).
func procStatus(pid int, field string) int64 {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// procCPU is the user and system CPU time process pid has used (Linux; 0
// when unreadable), in the kernel's 100 Hz ticks, this process's own to the
// microsecond (a floor of 30 requests takes less than a tick).
func procCPU(pid int) time.Duration {
	if pid <= 0 {
		return 0
	}
	if pid == os.Getpid() { // this process (a test's in-process server): to the microsecond
		var ru syscall.Rusage
		if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
			return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// pid (comm) state ppid … utime stime: fields 14 and 15, counted after ")".
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	user, _ := strconv.ParseInt(f[11], 10, 64)
	sys, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(user+sys) * 10 * time.Millisecond
}

// startCPUProfile writes this process's CPU profile to path until the
// returned function is called.
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
