package httpx

import (
	"time"

	"github.com/revisor-sm/revisor/app"
)

// Clock is a round's clock in the server's time, as the API answers it
// (GET …/rounds/{n}/clock) and the table page's script reads it:
// remaining_seconds is counted at server_time.
type Clock struct {
	Round            int        `json:"round"`
	State            string     `json:"state"`
	EndsAt           *time.Time `json:"ends_at"`
	RemainingSeconds int        `json:"remaining_seconds"`
	CalledAt         *time.Time `json:"called_at"`
	ServerTime       time.Time  `json:"server_time"`
	LastAction       string     `json:"last_action,omitempty"`
	UpdatedAt        *time.Time `json:"updated_at,omitempty"`
}

// ClockOf writes a clock as it reads at r.At. A paused clock has no end
// time; its remaining seconds stand still.
func ClockOf(r *app.ClockReading) Clock {
	c := r.Clock
	out := Clock{Round: c.Round, State: string(c.State), EndsAt: c.EndsAt, CalledAt: c.CalledAt, ServerTime: r.At,
		RemainingSeconds: r.RemainingSeconds(), LastAction: c.Action}
	if !c.UpdatedAt.IsZero() {
		out.UpdatedAt = &c.UpdatedAt
	}
	return out
}
