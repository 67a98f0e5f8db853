package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/tournament"
)

// eventJSON is the data of a "change" event.
type eventJSON struct {
	Kind  string `json:"kind"`
	Round int    `json:"round,omitempty"`
	Table int    `json:"table,omitempty"`
}

// events streams a tournament's changes as Server-Sent Events: one
// "change" event per change, a comment every heartbeat. Pages that hear a
// change read themselves again (static/app.js).
func (h *Handler) events(c echo.Context) error {
	tid := c.Param("tid")
	if _, err := h.deps.Tournaments.Tournament(c.Request().Context(), tid); err != nil {
		return h.fail(c, err)
	}
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
	for {
		select {
		case <-c.Request().Context().Done():
			return nil
		case e := <-ch:
			// Forget the cached snapshot before the page asks again.
			h.cache.invalidate(tid)
			if send(changeEvent(e)) != nil {
				return nil
			}
		case <-beat.C:
			if send(": ping\n\n") != nil {
				return nil
			}
		}
	}
}

func changeEvent(e tournament.Event) string {
	b, _ := json.Marshal(eventJSON{Kind: e.Kind, Round: e.Round, Table: e.Table})
	return "event: change\ndata: " + string(b) + "\n\n"
}
