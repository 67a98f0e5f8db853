package postgres

import (
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
)

// PoolCollector exports a pgxpool's statistics as Prometheus metrics
// (revisor_db_pool_*). Register it on the registry that /metrics serves.
type PoolCollector struct {
	pool *pgxpool.Pool
	descs
}

type descs struct {
	acquired, idle, total, max, acquires, acquireSeconds, emptyAcquires, canceledAcquires *prometheus.Desc
}

// NewPoolCollector returns a collector of pool's statistics.
func NewPoolCollector(pool *pgxpool.Pool) *PoolCollector {
	return NewPoolCollectorAs("revisor_db_pool_", pool)
}

// NewPoolCollectorAs is NewPoolCollector with another prefix of the
// metrics' names, for a second pool (the pages' pool:
// revisor_db_pages_pool_*).
func NewPoolCollectorAs(prefix string, pool *pgxpool.Pool) *PoolCollector {
	d := func(name, help string) *prometheus.Desc {
		return prometheus.NewDesc(prefix+name, help, nil, nil)
	}
	return &PoolCollector{pool: pool, descs: descs{
		acquired:         d("acquired_conns", "Connections currently in use."),
		idle:             d("idle_conns", "Idle connections in the pool."),
		total:            d("total_conns", "All connections in the pool."),
		max:              d("max_conns", "Largest size the pool may reach."),
		acquires:         d("acquires_total", "Connections acquired from the pool."),
		acquireSeconds:   d("acquire_seconds_total", "Time spent waiting to acquire a connection."),
		emptyAcquires:    d("empty_acquires_total", "Acquires that had to wait for a connection."),
		canceledAcquires: d("canceled_acquires_total", "Acquires canceled by their context."),
	}}
}

// Describe implements prometheus.Collector.
func (c *PoolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.acquired, c.idle, c.total, c.max,
		c.acquires, c.acquireSeconds, c.emptyAcquires, c.canceledAcquires} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *PoolCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.pool.Stat()
	gauge := func(d *prometheus.Desc, v float64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v)
	}
	counter := func(d *prometheus.Desc, v float64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v)
	}
	gauge(c.acquired, float64(s.AcquiredConns()))
	gauge(c.idle, float64(s.IdleConns()))
	gauge(c.total, float64(s.TotalConns()))
	gauge(c.max, float64(s.MaxConns()))
	counter(c.acquires, float64(s.AcquireCount()))
	counter(c.acquireSeconds, s.AcquireDuration().Seconds())
	counter(c.emptyAcquires, float64(s.EmptyAcquireCount()))
	counter(c.canceledAcquires, float64(s.CanceledAcquireCount()))
}
