package site

import (
	"strconv"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/internal/ratelimit"
	"github.com/revisor-sm/revisor/tournament"
)

// StreamLimits bound the live event streams (GET /t/{tid}/events) the
// server holds open at once: each holds a connection, a descriptor and a
// goroutine, and 2,100 of them at a descriptor limit of 2,048 left
// /healthz, /readyz and the API timing out (issue 25, point 3). Beyond a
// limit a stream is refused with 503 and Retry-After, and the page falls
// back to reading itself again now and then (static/app.js).
type StreamLimits struct {
	// Total bounds the streams of the process; keep it below the
	// descriptor limit, with a reserve for the API and the database
	// (cmd/revisor derives it from RLIMIT_NOFILE).
	Total int
	// PerTournament bounds one tournament's streams.
	PerTournament int
	// PerAddress bounds one client address's streams (IPv6 by /64); a
	// venue's phones may share one address behind NAT, so it is generous.
	PerAddress int
}

// Default stream limits, for a server that is not told otherwise.
const (
	DefaultMaxStreams              = 4000
	DefaultMaxStreamsPerTournament = 2000
	DefaultMaxStreamsPerAddress    = 500
	// streamRetryAfter is the Retry-After of a refused stream, seconds.
	streamRetryAfter = 30
)

func (l StreamLimits) withDefaults() StreamLimits {
	if l.Total <= 0 {
		l.Total = DefaultMaxStreams
	}
	if l.PerTournament <= 0 {
		l.PerTournament = min(DefaultMaxStreamsPerTournament, l.Total)
	}
	if l.PerAddress <= 0 {
		l.PerAddress = min(DefaultMaxStreamsPerAddress, l.Total)
	}
	return l
}

// streams counts the open streams against their limits.
type streams struct {
	lim    StreamLimits
	mu     sync.Mutex
	total  int
	byTid  map[string]int
	byAddr map[string]int
}

func newStreams(lim StreamLimits) *streams {
	return &streams{lim: lim.withDefaults(), byTid: map[string]int{}, byAddr: map[string]int{}}
}

// admit takes a place for a stream of tid from addr; release gives it back.
func (s *streams) admit(tid, addr string) (release func(), ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.total >= s.lim.Total || s.byTid[tid] >= s.lim.PerTournament || s.byAddr[addr] >= s.lim.PerAddress {
		return nil, false
	}
	s.total++
	s.byTid[tid]++
	s.byAddr[addr]++
	var once sync.Once
	return func() { once.Do(func() { s.release(tid, addr) }) }, true
}

func (s *streams) release(tid, addr string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.total--
	if s.byTid[tid]--; s.byTid[tid] <= 0 {
		delete(s.byTid, tid)
	}
	if s.byAddr[addr]--; s.byAddr[addr] <= 0 {
		delete(s.byAddr, addr)
	}
}

// AdmitStream is the middleware of the event streams: it refuses a stream
// beyond the limits with 503 and Retry-After, before the stream is
// subscribed or anything is read.
func (h *Site) AdmitStream(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		release, ok := h.streams.admit(c.Param("tid"), ratelimit.AddrKey(c.RealIP()))
		if !ok {
			c.Response().Header().Set("Retry-After", strconv.Itoa(streamRetryAfter))
			return tournament.Errorf(tournament.KindUnavailable, tournament.CodeTooManyStreams,
				"the server follows as many live pages as it can; this page reads itself again in a while")
		}
		defer release()
		return next(c)
	}
}
