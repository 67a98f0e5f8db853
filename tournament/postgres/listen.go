package postgres

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/revisor-sm/revisor/tournament"
)

// EventsChannel is the PostgreSQL channel that migration 000010's triggers
// notify on.
const EventsChannel = "revisor_events"

// Reconnection backoff of the listener: doubling from the first to the
// last.
const (
	listenBackoffFirst = 100 * time.Millisecond
	listenBackoffMax   = 5 * time.Second
)

// Listener turns PostgreSQL notifications on EventsChannel into tournament
// events. It holds one dedicated connection (LISTEN does not work through a
// pool, which hands connections around) and reconnects with backoff when it
// is lost.
type Listener struct {
	cfg     *pgx.ConnConfig
	publish func(tournament.Event)
	log     *slog.Logger
	// ready is closed once the first LISTEN succeeds.
	ready chan struct{}
}

// NewListener returns a listener that connects like pool and hands each
// event to publish (typically a tournament.Broker's Publish). A nil log
// discards the listener's warnings.
func NewListener(pool *pgxpool.Pool, publish func(tournament.Event), log *slog.Logger) *Listener {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Listener{cfg: pool.Config().ConnConfig.Copy(), publish: publish, log: log, ready: make(chan struct{})}
}

// Ready is closed once the listener listens for the first time.
func (l *Listener) Ready() <-chan struct{} { return l.ready }

// Run listens until ctx ends. After a lost connection it reconnects and
// publishes a resync event (a tournament-less event), since notifications
// sent meanwhile are lost.
func (l *Listener) Run(ctx context.Context) {
	backoff := listenBackoffFirst
	first := true
	for ctx.Err() == nil {
		err := l.listen(ctx, func() {
			backoff = listenBackoffFirst
			if first {
				first = false
				close(l.ready)
				return
			}
			l.publish(tournament.Event{Kind: "resync"})
		})
		if ctx.Err() != nil {
			return
		}
		l.log.Warn("live updates: listener lost its connection; reconnecting", "error", err.Error(),
			"backoff", backoff.String())
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, listenBackoffMax)
	}
}

// listen connects, listens and delivers notifications until the
// connection fails or ctx ends; listening is called once LISTEN succeeded.
func (l *Listener) listen(ctx context.Context, listening func()) error {
	conn, err := pgx.ConnectConfig(ctx, l.cfg)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+EventsChannel); err != nil {
		return err
	}
	listening()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		e, err := decodeEvent(n.Payload)
		if err != nil {
			l.log.Warn("live updates: unreadable notification", "payload", n.Payload, "error", err.Error())
			continue
		}
		l.publish(e)
	}
}

// eventPayload is the JSON that revisor_notify_change sends.
type eventPayload struct {
	Tournament string `json:"tournament"`
	Kind       string `json:"kind"`
	Round      *int   `json:"round"`
	Table      *int   `json:"table"`
}

func decodeEvent(payload string) (tournament.Event, error) {
	var p eventPayload
	if err := json.Unmarshal([]byte(payload), &p); err != nil {
		return tournament.Event{}, err
	}
	e := tournament.Event{Tournament: p.Tournament, Kind: p.Kind}
	if p.Round != nil {
		e.Round = *p.Round
	}
	if p.Table != nil {
		e.Table = *p.Table
	}
	return e, nil
}

// LiveEvents starts a listener on pool's database that feeds a new broker
// until ctx ends, and returns the broker: the event source of the web
// pages' live updates (api.Deps.Events).
func LiveEvents(ctx context.Context, pool *pgxpool.Pool, log *slog.Logger) *tournament.Broker {
	b := tournament.NewBroker()
	go NewListener(pool, b.Publish, log).Run(ctx)
	return b
}
