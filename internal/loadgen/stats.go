package loadgen

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
)

// Stats is what the clients saw, per endpoint. It is safe for concurrent
// use.
type Stats struct {
	mu        sync.Mutex
	endpoints map[string]*Endpoint
}

// Endpoint is the record of one endpoint: the latency of every request
// that got an answer, the answers by status (0: no answer), and retries.
type Endpoint struct {
	Latencies []time.Duration
	Statuses  map[int]int
	Retries   int
	// FirstError is the first transport error or 5xx seen.
	FirstError string
}

// NewStats returns empty stats.
func NewStats() *Stats { return &Stats{endpoints: map[string]*Endpoint{}} }

func (s *Stats) endpoint(name string) *Endpoint {
	e := s.endpoints[name]
	if e == nil {
		e = &Endpoint{Statuses: map[int]int{}}
		s.endpoints[name] = e
	}
	return e
}

// Observe records one request to endpoint name: its status (0: no answer),
// and its latency when it got an answer (err nil). The clients of this
// package record through it, and so may other load of the same shape (the
// floor of cmd/revisor-load).
func (s *Stats) Observe(name string, status int, d time.Duration, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.endpoint(name)
	e.Statuses[status]++
	if err == nil {
		e.Latencies = append(e.Latencies, d)
	}
	if e.FirstError == "" && (err != nil || status >= 500) {
		e.FirstError = fmt.Sprintf("status %d %v", status, err)
	}
}

func (s *Stats) retry(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.endpoint(name).Retries++
}

// Endpoint returns a copy of the record of one endpoint (zero when it saw
// no request).
func (s *Stats) Endpoint(name string) Endpoint {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.endpoints[name]
	if !ok {
		return Endpoint{Statuses: map[int]int{}}
	}
	return Endpoint{Latencies: slices.Clone(e.Latencies), Statuses: maps.Clone(e.Statuses), Retries: e.Retries,
		FirstError: e.FirstError}
}

// Names lists the endpoints seen, sorted.
func (s *Stats) Names() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Sorted(maps.Keys(s.endpoints))
}

// Percentile returns the latency below which the fraction p of the answers
// fall (nearest rank; p = 1 is the maximum), 0 when there are none.
func Percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p*float64(len(sorted))+0.999999) - 1
	return sorted[max(0, min(len(sorted)-1, i))]
}

// Requests is how many requests the endpoint sent, answered or not.
func (e Endpoint) Requests() int {
	n := 0
	for _, v := range e.Statuses {
		n += v
	}
	return n
}

// Print writes one line per endpoint: requests, throughput over elapsed,
// latency percentiles of the answered requests and the statuses.
func (s *Stats) Print(w io.Writer, elapsed time.Duration) {
	fmt.Fprintf(w, "%-8s %8s %9s %9s %9s %9s %9s %7s  %s\n", "endpoint", "requests", "per_sec", "p50", "p90", "p99", "max", "retries", "statuses (0: no answer)")
	for _, name := range s.Names() {
		e := s.Endpoint(name)
		slices.Sort(e.Latencies)
		ms := func(p float64) string {
			return fmt.Sprintf("%.2fms", float64(Percentile(e.Latencies, p).Microseconds())/1000)
		}
		fmt.Fprintf(w, "%-8s %8d %9.1f %9s %9s %9s %9s %7d  %s\n", name, e.Requests(),
			float64(e.Requests())/elapsed.Seconds(), ms(0.50), ms(0.90), ms(0.99), ms(1), e.Retries, statusList(e.Statuses))
		if e.FirstError != "" {
			fmt.Fprintf(w, "%-8s first failure: %s\n", "", e.FirstError)
		}
	}
}

func statusList(m map[int]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%d:%d", k, m[k]))
	}
	return strings.Join(parts, " ")
}
