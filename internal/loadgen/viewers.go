package loadgen

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The views a viewer may watch: the standings, the current round's
// seating, the big screen, or a player's own page.
const (
	ViewStandings = "standings"
	ViewSeating   = "seating"
	ViewScreen    = "screen"
	ViewPlayer    = "player"
)

// ViewerConfig is a crowd of viewers of a tournament's public pages, each
// behaving as the pages' script does (web/static/live.js): one event
// stream; on a change whose version is above the page's, a fetch of the
// page after Quiet without another and a random part of the change's
// window (its w, drawn once for the changes not shown), at most MaxWait
// after the first change not shown, one fetch in flight, with the page's
// ETag.
type ViewerConfig struct {
	BaseURL, Tournament string
	Viewers             int
	// Views are spread over the viewers in turn (ViewStandings, ...).
	Views []string
	// Players are the ids a ViewPlayer viewer picks from.
	Players []string
	// Spread is how long the viewers take to arrive (each opens its page
	// at a random moment within it); 0: 5 s.
	Spread time.Duration
	// Quiet, MaxWait: the script's debounce (150 ms) and its maximum wait
	// (1 s); Starved: a viewer is starved when a change it heard waits
	// longer than this for its page (5 s).
	Quiet, MaxWait, Starved time.Duration
	Client                  *http.Client
	Seed                    uint64
}

// ViewerReport is what the viewers saw.
type ViewerReport struct {
	Viewers, Streams int // viewers, and streams that opened
	// Fetches of pages by status (0: no answer), their latencies.
	Statuses  map[int]int
	Latencies []time.Duration
	// Freshness is, per change a viewer heard, the time from the change's
	// version (the server's clock when it heard of the commit) to the
	// viewer holding a page as of it or later; sorted. Unshown counts the
	// changes heard and never shown by the end.
	Freshness []time.Duration
	Unshown   int
	// Starved viewers waited longer than Starved for a change at least
	// once; MaxBehind is the longest any waited.
	Starved   int
	MaxBehind time.Duration
	// Planned is, per fetch armed for a change, when it was to start,
	// counted from the oldest change not shown: the quiet and the drawn
	// part of the window, at most MaxWait; sorted. What the viewers meant
	// to do, apart from how late a busy machine let them do it.
	Planned []time.Duration
}

// Watch is a crowd of viewers at work; Stop ends it.
type Watch struct {
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	viewers []*viewer
	cfg     ViewerConfig
}

// WatchPages starts cfg.Viewers viewers of the pages of tournament
// cfg.Tournament; they run until ctx ends or Stop.
func WatchPages(ctx context.Context, cfg ViewerConfig) (*Watch, error) {
	if err := CheckLoopback(cfg.BaseURL); err != nil {
		return nil, err
	}
	if cfg.Viewers < 0 || cfg.Viewers > 20000 || len(cfg.Views) == 0 {
		return nil, errors.New("viewers: 0 to 20000, and at least one view")
	}
	for _, v := range cfg.Views {
		if !slices.Contains([]string{ViewStandings, ViewSeating, ViewScreen, ViewPlayer}, v) {
			return nil, fmt.Errorf("view %q: want standings, seating, screen or player", v)
		}
		if v == ViewPlayer && len(cfg.Players) == 0 {
			return nil, errors.New("view player: no players")
		}
	}
	cfg.Quiet = cmpOr(cfg.Quiet, 150*time.Millisecond)
	cfg.MaxWait = cmpOr(cfg.MaxWait, time.Second)
	cfg.Starved = cmpOr(cfg.Starved, 5*time.Second)
	cfg.Spread = cmpOr(cfg.Spread, 5*time.Second)
	if cfg.Client == nil {
		cfg.Client = &http.Client{Transport: &http.Transport{MaxIdleConns: 2*cfg.Viewers + 4,
			MaxIdleConnsPerHost: 2*cfg.Viewers + 4}}
	}
	ctx, cancel := context.WithCancel(ctx)
	w := &Watch{cancel: cancel, cfg: cfg}
	pick := rand.New(rand.NewPCG(cfg.Seed, 28))
	base := strings.TrimSuffix(cfg.BaseURL, "/") + "/t/" + cfg.Tournament
	for i := range cfg.Viewers {
		path := base + "/" + cfg.Views[i%len(cfg.Views)]
		if cfg.Views[i%len(cfg.Views)] == ViewPlayer {
			path = base + "/players/" + cfg.Players[pick.IntN(len(cfg.Players))]
		}
		v := &viewer{cfg: &w.cfg, page: path, events: base + "/events?for=pages", statuses: map[int]int{},
			rand: rand.New(rand.NewPCG(cfg.Seed, uint64(i)))}
		w.viewers = append(w.viewers, v)
		delay := time.Duration(pick.Int64N(int64(cfg.Spread)))
		w.wg.Go(func() { v.run(ctx, delay) })
	}
	return w, nil
}

func cmpOr(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// Stop ends the viewers, once every change they heard is on their pages
// or after grace, and reports what they saw.
func (w *Watch) Stop(grace time.Duration) ViewerReport {
	for end := time.Now().Add(grace); time.Now().Before(end) && w.waiting() > 0; {
		time.Sleep(50 * time.Millisecond)
	}
	now := time.Now()
	w.cancel()
	w.wg.Wait()
	r := ViewerReport{Viewers: len(w.viewers), Statuses: map[int]int{}}
	for _, v := range w.viewers {
		v.mu.Lock()
		v.behindUntil(now)
		if v.opened {
			r.Streams++
		}
		for s, n := range v.statuses {
			r.Statuses[s] += n
		}
		r.Latencies = append(r.Latencies, v.latencies...)
		r.Freshness = append(r.Freshness, v.fresh...)
		r.Planned = append(r.Planned, v.planned...)
		r.Unshown += len(v.pending)
		if v.maxBehind > w.cfg.Starved {
			r.Starved++
		}
		r.MaxBehind = max(r.MaxBehind, v.maxBehind)
		v.mu.Unlock()
	}
	slices.Sort(r.Latencies)
	slices.Sort(r.Freshness)
	slices.Sort(r.Planned)
	return r
}

// waiting counts the viewers with a change not yet on their page.
func (w *Watch) waiting() int {
	n := 0
	for _, v := range w.viewers {
		v.mu.Lock()
		if len(v.pending) > 0 {
			n++
		}
		v.mu.Unlock()
	}
	return n
}

// Print writes the report's lines.
func (r ViewerReport) Print(out io.Writer) {
	n := 0
	for _, c := range r.Statuses {
		n += c
	}
	fmt.Fprintf(out, "viewers: %d viewers, %d streams open; %d page fetches (%s), latency p50 %s p99 %s max %s\n",
		r.Viewers, r.Streams, n, statusList(r.Statuses), ms(Percentile(r.Latencies, 0.5)), ms(Percentile(r.Latencies, 0.99)),
		ms(Percentile(r.Latencies, 1)))
	fmt.Fprintf(out, "viewers: freshness over %d changes heard: p50 %s p99 %s max %s; %d never shown; %d viewers starved "+
		"(a change waited over 5 s), longest wait %s (the run ends when every page is up to date, 10 s at most)\n", len(r.Freshness), ms(Percentile(r.Freshness, 0.5)),
		ms(Percentile(r.Freshness, 0.99)), ms(Percentile(r.Freshness, 1)), r.Unshown, r.Starved, ms(r.MaxBehind))
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000) }

// viewer is one phone on one page.
type viewer struct {
	cfg          *ViewerConfig
	page, events string

	mu         sync.Mutex
	opened     bool
	have, want int64         // the version taken as shown, the latest heard (µs)
	asked      int64         // the version wanted when the fetch in flight began
	held       int64         // the version of the page held, for the freshness
	since      time.Time     // when the oldest change not shown was heard
	extra      time.Duration // the part of the window waited, drawn at since
	rand       *rand.Rand
	inFlight   bool
	failures   int
	behind     int
	timer      *time.Timer
	etag       string
	pending    []int64 // versions heard, not yet shown
	fresh      []time.Duration
	maxBehind  time.Duration
	statuses   map[int]int
	latencies  []time.Duration
	planned    []time.Duration
	ctx        context.Context
	fetchAgain func()
}

func (v *viewer) run(ctx context.Context, delay time.Duration) {
	select {
	case <-time.After(delay):
	case <-ctx.Done():
		return
	}
	v.ctx = ctx
	if asOf, ok := v.fetch(false); ok {
		v.mu.Lock()
		v.have, v.held = asOf, asOf
		v.mu.Unlock()
	}
	for ctx.Err() == nil {
		if v.listen(ctx) {
			v.poll(ctx)
			continue
		}
		select { // the stream's retry: 2000
		case <-time.After(2 * time.Second):
		case <-ctx.Done():
		}
	}
	v.mu.Lock()
	if v.timer != nil {
		v.timer.Stop()
	}
	v.mu.Unlock()
}

// poll is app.js's page whose stream the server refused: it reads
// itself again a minute later, and live.js's follow opens the stream
// again then.
func (v *viewer) poll(ctx context.Context) {
	select {
	case <-time.After(time.Minute):
	case <-ctx.Done():
		return
	}
	if asOf, ok := v.fetch(false); ok {
		v.mu.Lock()
		if asOf > v.held {
			v.behindUntil(time.Now())
			v.held = asOf
		}
		v.have = max(v.have, asOf)
		v.shown(time.Now())
		v.mu.Unlock()
	}
}

// listen reads the event stream until it ends, as a browser's
// EventSource (Accept: text/event-stream); refused says the server
// answered with another status, which closes an EventSource for good.
func (v *viewer) listen(ctx context.Context) (refused bool) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, v.events, nil)
	if err != nil {
		return false
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := v.cfg.Client.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return true
	}
	v.mu.Lock()
	v.opened = true
	v.mu.Unlock()
	sc := bufio.NewScanner(resp.Body)
	event := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: ") && (event == "change" || event == "hello"): // a hello names what the page may have missed
			var d struct{ V, W int64 }
			if json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &d) == nil && d.V > 0 {
				v.heard(d.V, time.Duration(d.W)*time.Millisecond)
			}
		case line == "":
			event = ""
		}
	}
	return false
}

// heard is live.js's heard: version ver, its fetch to be spread over
// window.
func (v *viewer) heard(ver int64, window time.Duration) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if ver <= v.have {
		return
	}
	if v.want <= v.have || (v.inFlight && v.want <= v.asked) {
		v.since = time.Now()
		v.extra = 0
		if w := min(window, v.cfg.MaxWait-v.cfg.Quiet); w > 0 {
			v.extra = time.Duration(v.rand.Int64N(int64(w)))
		}
	}
	v.want = max(v.want, ver)
	v.pending = append(v.pending, ver)
	v.plan()
}

// plan arms the fetch's timer, under v.mu.
func (v *viewer) plan() {
	if v.inFlight || v.want <= v.have || v.failures > 0 {
		return
	}
	now := time.Now()
	d := min(max(v.cfg.Quiet, v.since.Add(v.cfg.Quiet+v.extra).Sub(now)), v.since.Add(v.cfg.MaxWait).Sub(now))
	v.planned = append(v.planned, now.Add(d).Sub(v.since))
	v.arm(d)
}

func (v *viewer) arm(d time.Duration) {
	if v.timer != nil {
		v.timer.Stop()
	}
	v.timer = time.AfterFunc(max(d, 0), v.fire)
}

// fire fetches the page once its wait is over.
func (v *viewer) fire() {
	v.mu.Lock()
	if v.inFlight || v.want <= v.have || v.ctx.Err() != nil {
		v.mu.Unlock()
		return
	}
	v.inFlight = true
	v.asked = v.want
	v.mu.Unlock()
	asOf, ok := v.fetch(true)
	v.mu.Lock()
	defer v.mu.Unlock()
	v.inFlight = false
	if !ok {
		v.failures++
		v.arm(min(30*time.Second, time.Second<<min(v.failures-1, 5)))
		return
	}
	v.failures = 0
	now := time.Now()
	if asOf > v.held {
		v.behindUntil(now)
		v.held = asOf
	}
	v.have = max(v.have, asOf)
	v.shown(now)
	if v.want <= v.have {
		v.behind = 0
		return
	}
	if v.have >= v.asked { // as live.js: changes heard during the fetch are new ones
		v.behind = 0
		v.plan()
		return
	}
	if v.behind++; v.behind > 3 {
		// As live.js: take the change as shown and wait for the next; the
		// changes stay pending here until a page holds them, so that the
		// freshness measured is what the viewer saw.
		v.have, v.behind = v.want, 0
		return
	}
	v.since = now.Add(-v.cfg.MaxWait + v.cfg.Quiet)
	v.plan()
}

// shown records the freshness of the changes the page now holds.
func (v *viewer) shown(now time.Time) {
	rest := v.pending[:0]
	for _, ver := range v.pending {
		if ver <= v.held {
			v.fresh = append(v.fresh, now.Sub(time.UnixMicro(ver)))
		} else {
			rest = append(rest, ver)
		}
	}
	v.pending = rest
}

// behindUntil notes how long the oldest change not shown has waited.
func (v *viewer) behindUntil(now time.Time) {
	if len(v.pending) > 0 {
		v.maxBehind = max(v.maxBehind, now.Sub(time.UnixMicro(slices.Min(v.pending))))
	}
}

var asOfAttr = regexp.MustCompile(`data-as-of="(\d+)"`)

// readPage reads an answer's body to its end; a page that says its version
// in X-Revisor-As-Of is read and dropped, not kept: a thousand viewers
// keeping every page they fetch (about 70,000 in a championship run)
// made this machine's collector, shared with the server and the tables,
// work for pages nobody looks at.
func readPage(resp *http.Response) ([]byte, error) {
	if resp.StatusCode == http.StatusOK && resp.Header.Get("X-Revisor-As-Of") != "" {
		_, err := io.Copy(io.Discard, resp.Body)
		return nil, err
	}
	return io.ReadAll(resp.Body)
}

// fetch reads the page (refresh: as a live refresh, with the ETag held)
// and returns the version it shows.
func (v *viewer) fetch(refresh bool) (int64, bool) {
	ctx, cancel := context.WithTimeout(v.ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, v.page, nil)
	if err != nil {
		return 0, false
	}
	// A browser takes gzip; so does the viewer, which reads the page's
	// version from X-Revisor-As-Of (the server's copy of its data-as-of)
	// rather than spend this machine's CPU on unpacking pages.
	req.Header.Set("Accept-Encoding", "gzip")
	v.mu.Lock()
	if refresh {
		req.Header.Set("X-Revisor-Refresh", "1")
		if v.etag != "" {
			req.Header.Set("If-None-Match", v.etag)
		}
	}
	held := v.held
	v.mu.Unlock()
	t0 := time.Now()
	resp, err := v.cfg.Client.Do(req)
	status := 0
	var body []byte
	if err == nil {
		status = resp.StatusCode
		body, err = readPage(resp)
		resp.Body.Close()
	}
	if v.ctx.Err() != nil {
		return 0, false // the end of the run: not counted
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	v.statuses[status]++
	if err != nil {
		return 0, false
	}
	v.latencies = append(v.latencies, time.Since(t0))
	switch status {
	case http.StatusNotModified:
		return held, true
	case http.StatusOK:
		v.etag = resp.Header.Get("ETag")
		if h := resp.Header.Get("X-Revisor-As-Of"); h != "" {
			n, err := strconv.ParseInt(h, 10, 64)
			return n, err == nil
		}
		if resp.Header.Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				return 0, false
			}
			if body, err = io.ReadAll(zr); err != nil {
				return 0, false
			}
		}
		if i := bytes.Index(body, []byte("data-as-of=")); i >= 0 {
			if m := asOfAttr.FindSubmatch(body[i:min(len(body), i+40)]); m != nil {
				n, _ := strconv.ParseInt(string(m[1]), 10, 64)
				return n, true
			}
		}
		return 0, true
	}
	return 0, false
}
