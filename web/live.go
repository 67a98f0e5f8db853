package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/tournament"
)

// The event stream of a tournament (Server-Sent Events), in two forms.
//
// A public page's stream (/t/{tid}/events?for=pages, the URL in its
// data-events) says only what its page shows, at most once per
// pagesCoalesce: an event "change" when the tournament's state changed,
// with the version v, the server's clock in microseconds when it heard of
// the change (tournament.Event.At); an event "clock" when the round clock did. The deals and
// confirmations of a full hall, which no public page shows, send nothing.
// A page's data-as-of is when its snapshot's read began, so a page whose
// data-as-of is not below the latest v holds the change; static/live.js
// fetches the page again only when it does not.
//
// The table page's stream (no ?for) sends one "change" per change, with
// its kind, round, table and v. Neither stream changes the pages' cache:
// that follows the events on its own (cache.go), once per process.
const pagesCoalesce = 500 * time.Millisecond

// eventJSON is the data of a "change" event.
type eventJSON struct {
	Kind  string `json:"kind"`
	Round int    `json:"round,omitempty"`
	Table int    `json:"table,omitempty"`
	V     int64  `json:"v"`
}

// events streams a tournament's changes: a comment every heartbeat and
// the events above.
func (h *Handler) events(c echo.Context) error {
	tid := c.Param("tid")
	if _, err := h.state(c.Request().Context(), tid); err != nil {
		return h.fail(c, err)
	}
	pages := c.QueryParam("for") == "pages"
	ch, stop := h.deps.Events.Subscribe(tid)
	defer stop()
	w := c.Response()
	w.Header().Set(echo.HeaderContentType, "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	send := func(s string) error {
		// An event stream outlives the server's write timeout.
		_ = rc.SetWriteDeadline(time.Now().Add(h.cfg.Heartbeat + 10*time.Second))
		if _, err := fmt.Fprint(w, s); err != nil {
			return err
		}
		return rc.Flush()
	}
	if err := send("retry: 2000\n: listening\n\n"); err != nil {
		return nil
	}
	beat := time.NewTicker(h.cfg.Heartbeat)
	defer beat.Stop()
	var p pagesStream
	for {
		select {
		case <-c.Request().Context().Done():
			return nil
		case e := <-ch:
			v := e.At.UnixMicro()
			if e.At.IsZero() {
				v = h.cfg.Now().UnixMicro()
			}
			if !pages {
				if send(changeEvent(e, v)) != nil {
					return nil
				}
				continue
			}
			p.hear(e, v)
		case <-p.timer():
			p.waiting = nil
		case <-beat.C:
			if send(": ping\n\n") != nil {
				return nil
			}
		}
		if msg := p.due(time.Now()); msg != "" && send(msg) != nil {
			return nil
		}
	}
}

// pagesStream is what a public page's stream has heard and not yet sent.
type pagesStream struct {
	kind    string // the latest change of state heard, "" when none waits
	v       int64
	clock   bool // the round clock changed
	sent    time.Time
	waiting *time.Timer // fires when the next message may leave
}

// hear notes event e, heard at version v.
func (p *pagesStream) hear(e tournament.Event, v int64) {
	switch {
	case e.Kind == kindClock:
		p.clock = true
	case stateKind(e.Kind):
		p.kind, p.v = e.Kind, v
	}
}

// timer is the channel of the pending message's timer (nil: none).
func (p *pagesStream) timer() <-chan time.Time {
	if p.waiting == nil {
		return nil
	}
	return p.waiting.C
}

// due returns the message to send now: what waits, unless one was sent
// less than pagesCoalesce ago (then a timer is set for when it may).
func (p *pagesStream) due(now time.Time) string {
	if p.kind == "" && !p.clock {
		return ""
	}
	if wait := p.sent.Add(pagesCoalesce).Sub(now); wait > 0 {
		if p.waiting == nil {
			p.waiting = time.NewTimer(wait)
		}
		return ""
	}
	if p.waiting != nil {
		p.waiting.Stop()
		p.waiting = nil
	}
	msg := ""
	if p.kind != "" {
		b, _ := json.Marshal(eventJSON{Kind: p.kind, V: p.v})
		msg = "event: change\ndata: " + string(b) + "\n\n"
	}
	if p.clock {
		msg += "event: clock\ndata: {}\n\n"
	}
	p.kind, p.clock, p.sent = "", false, now
	return msg
}

func changeEvent(e tournament.Event, v int64) string {
	b, _ := json.Marshal(eventJSON{Kind: e.Kind, Round: e.Round, Table: e.Table, V: v})
	return "event: change\ndata: " + string(b) + "\n\n"
}
