package httpx

import (
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the server's request metrics.
type Metrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	inFlight prometheus.Gauge

	kept  sync.Map // seriesKey → series
	nkept atomic.Int64
}

// NewMetrics registers the request metrics on reg.
func NewMetrics(reg *prometheus.Registry) (*Metrics, error) {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "revisor_http_requests_total",
			Help: "HTTP requests answered, by method, route template and status.",
		}, []string{"method", "route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "revisor_http_request_duration_seconds",
			Help:    "Time to answer HTTP requests, by method and route template.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"method", "route"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "revisor_http_requests_in_flight",
			Help: "HTTP requests being handled now.",
		}),
	}
	for _, c := range []prometheus.Collector{m.requests, m.duration, m.inFlight} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// observe counts one answered request.
func (m *Metrics) observe(method, route string, status int, elapsed time.Duration) {
	s := m.series(method, route, status)
	s.requests.Inc()
	s.duration.Observe(elapsed.Seconds())
}

// seriesKey names the series a request counts in.
type seriesKey struct {
	method, route string
	status        int
}

// series are the counter and histogram of one method, route and status.
type series struct {
	requests prometheus.Counter
	duration prometheus.Observer
}

// maxKeptSeries bounds the series looked up once and kept (methods are
// the client's word); past it, the others are looked up per request.
const maxKeptSeries = 1024

// series returns the series of a request, looked up by its labels once
// (label values are checked, hashed and found under a lock on every
// lookup).
func (m *Metrics) series(method, route string, status int) series {
	k := seriesKey{method, route, status}
	if s, ok := m.kept.Load(k); ok {
		return s.(series)
	}
	s := series{m.requests.WithLabelValues(method, route, strconv.Itoa(status)), m.duration.WithLabelValues(method, route)}
	if m.nkept.Load() < maxKeptSeries {
		if _, loaded := m.kept.LoadOrStore(k, s); !loaded {
			m.nkept.Add(1)
		}
	}
	return s
}
