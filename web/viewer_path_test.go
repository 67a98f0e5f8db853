package web_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/internal/racecheck"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// viewerGet is a phone's request for path without a credential: gzip
// taken, with the ETag it holds ("" none), as a live refresh.
func viewerGet(path, etag string) *http.Request {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	req.Header.Set("X-Revisor-Refresh", "1")
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	return req
}

// settledETag renders path and returns its ETag once the notifications
// of the tournament's making have all been heard (two answers 200 ms
// apart carry the same ETag).
func settledETag(tb testing.TB, h http.Handler, path string) string {
	tb.Helper()
	last := ""
	for range 50 {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, viewerGet(path, ""))
		etag := rec.Header().Get("ETag")
		if rec.Code != http.StatusOK || etag == "" {
			tb.Fatalf("GET %s = %d, ETag %q; want 200 with an ETag", path, rec.Code, etag)
		}
		if etag == last {
			return etag
		}
		last = etag
		time.Sleep(200 * time.Millisecond)
	}
	tb.Fatalf("GET %s: the ETag changes every 200 ms for 10 s", path)
	return ""
}

// TestPublicFetchTouchesNoDatabase (issue 28): a thousand phones without
// a credential fetch the standings and the scripts; once the page is
// rendered, none of their requests may take a connection of the
// database (no session looked up without a session cookie, no snapshot
// read while the page is current), or the tables' writes queue behind
// them.
func TestPublicFetchTouchesNoDatabase(t *testing.T) {
	pool := dbtest.New(t)
	s := startSite(t, pool)
	f := s.mustTournament(t, tournament.FormatSM, 40, true)
	path := "/t/" + f.ID + "/standings"
	etag := settledETag(t, s.handler, path)
	time.Sleep(1100 * time.Millisecond) // past a snapshot's life in the cache: a render would read one
	before := pool.Stat().AcquireCount()
	for _, r := range []struct {
		req  *http.Request
		want int
	}{
		{viewerGet(path, ""), http.StatusOK},
		{viewerGet(path, etag), http.StatusNotModified},
		{httptest.NewRequest(http.MethodGet, path, nil), http.StatusOK},
		{httptest.NewRequest(http.MethodHead, path, nil), http.StatusOK},
		{httptest.NewRequest(http.MethodGet, "/static/app.js", nil), http.StatusOK},
		{httptest.NewRequest(http.MethodGet, "/static/live.js", nil), http.StatusOK},
		{httptest.NewRequest(http.MethodGet, "/static/style.css", nil), http.StatusOK},
	} {
		rec := httptest.NewRecorder()
		s.handler.ServeHTTP(rec, r.req)
		if rec.Code != r.want {
			t.Errorf("%s %s = %d, want %d", r.req.Method, r.req.URL, rec.Code, r.want)
		}
	}
	if got := pool.Stat().AcquireCount() - before; got != 0 {
		t.Errorf("public requests without a credential took %d connections of the database, want 0", got)
	}
}

// BenchmarkViewerPath measures a phone's fetch of the standings of a
// 200-player tournament through the whole server (middleware, metrics,
// the page cache), without the network: a cached answer (gzip), a 304,
// and beside them the floor, a bare echo handler answering a few bytes.
//
//	go test ./web -run '^$' -bench ViewerPath -benchmem
func BenchmarkViewerPath(b *testing.B) {
	floor := echo.New()
	floor.GET("/t/:tid/standings", func(c echo.Context) error { return c.String(http.StatusOK, "ok") })
	s := newSite(b)
	f := s.mustTournament(b, tournament.FormatSM, 200, true)
	path := "/t/" + f.ID + "/standings"
	etag := settledETag(b, s.handler, path)
	for _, bc := range []struct {
		name string
		h    http.Handler
		etag string
		want int
	}{
		{"echo-floor", floor, "", http.StatusOK},
		{"cached-page", s.handler, "", http.StatusOK},
		{"not-modified", s.handler, etag, http.StatusNotModified},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				rec := httptest.NewRecorder()
				bc.h.ServeHTTP(rec, viewerGet(path, bc.etag))
				if rec.Code != bc.want {
					b.Fatalf("GET %s = %d, want %d", path, rec.Code, bc.want)
				}
			}
		})
	}
}

// TestWritesNotBlockedWhileRendersSaturate (issue 28, deals first): six
// visitors ask for a new standings page each, as fast as they are
// answered, so that renders alone would take both cores; meanwhile
// results are stored. The render budget keeps a core for the writes: a
// result takes at most a few times what it takes on an idle server.
func TestWritesNotBlockedWhileRendersSaturate(t *testing.T) {
	if testing.Short() || racecheck.Enabled {
		t.Skip("measures latency: not in -short, nor under -race")
	}
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 400, true)
	rng := rand.New(rand.NewPCG(28, 4))
	tables := f.Round.Tables
	write := func(i int) time.Duration {
		tb := tables[i]
		rec := tournamenttest.SheetGame(rng, tb.Players, tb.FirstDealerOf(1))
		start := time.Now()
		s.submit(t, f, 1, tb, 1, rec)
		return time.Since(start)
	}
	const n = 15
	idle := make([]time.Duration, 0, n)
	for i := range n {
		idle = append(idle, write(i))
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var renders atomic.Int64
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	for g := range 6 {
		wg.Go(func() {
			for i := 0; ctx.Err() == nil; i++ {
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet,
					s.URL+"/t/"+f.ID+"/standings?v="+strconv.Itoa(g*1_000_000+i), nil)
				if resp, err := client.Do(req); err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					renders.Add(1)
				}
			}
		})
	}
	time.Sleep(300 * time.Millisecond)
	busy := make([]time.Duration, 0, n)
	for i := range n {
		busy = append(busy, write(n+i))
	}
	cancel()
	wg.Wait()
	slices.Sort(idle)
	slices.Sort(busy)
	t.Logf("a result stored: p50 %v idle, %v with %d pages rendered meanwhile", idle[n/2], busy[n/2], renders.Load())
	if limit := 3*idle[n/2] + 20*time.Millisecond; busy[n/2] > limit {
		t.Errorf("a result stored while renders saturate: p50 %v, want at most %v (3× the idle %v + 20ms)", busy[n/2], limit, idle[n/2])
	}
}

// TestCachedAnswerIsWhole (issue 28): a page from the cache goes out with
// its Content-Length, in one piece rather than in chunks, compressed for
// a phone that takes gzip (the same page once unpacked); its 304 has no
// body and says no encoding.
func TestCachedAnswerIsWhole(t *testing.T) {
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 200, true)
	path := "/t/" + f.ID + "/standings"
	etag := settledETag(t, s.handler, path)
	srv := httptest.NewServer(s.handler)
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	get := func(gz bool, etag string) (*http.Response, []byte) {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		req.Header.Set("X-Revisor-Refresh", "1")
		if gz {
			req.Header.Set("Accept-Encoding", "gzip")
		}
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, body
	}
	plain, body := get(false, "")
	zipped, zbody := get(true, "")
	for _, r := range []struct {
		resp *http.Response
		body []byte
	}{{plain, body}, {zipped, zbody}} {
		if r.resp.StatusCode != http.StatusOK || r.resp.ContentLength != int64(len(r.body)) || len(r.resp.TransferEncoding) > 0 {
			t.Errorf("GET %s (Accept-Encoding %q) = %d, Content-Length %d, Transfer-Encoding %v, %d bytes; want 200 with the body's length, not chunked",
				path, r.resp.Request.Header.Get("Accept-Encoding"), r.resp.StatusCode, r.resp.ContentLength, r.resp.TransferEncoding, len(r.body))
		}
	}
	zr, err := gzip.NewReader(bytes.NewReader(zbody))
	if err != nil || zipped.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("the gzip answer: Content-Encoding %q, %v", zipped.Header.Get("Content-Encoding"), err)
	}
	if unpacked, err := io.ReadAll(zr); err != nil || !bytes.Equal(unpacked, body) {
		t.Errorf("the gzip answer unpacked is %d bytes (%v), want the page's %d", len(unpacked), err, len(body))
	}
	if zipped.Header.Get("ETag") != etag || plain.Header.Get("ETag") == etag {
		t.Errorf("ETags %q (gzip) and %q, want %q for the gzip answer only", zipped.Header.Get("ETag"), plain.Header.Get("ETag"), etag)
	}
	nm, nbody := get(true, etag)
	if nm.StatusCode != http.StatusNotModified || len(nbody) > 0 || nm.Header.Get("Content-Encoding") != "" {
		t.Errorf("GET %s with its ETag = %d, %d bytes, Content-Encoding %q; want 304, no body, no encoding",
			path, nm.StatusCode, len(nbody), nm.Header.Get("Content-Encoding"))
	}
}
