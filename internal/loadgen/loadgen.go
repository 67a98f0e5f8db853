// Package loadgen drives a Revisor server over HTTP the way a championship
// does: it creates a Chicago-SM tournament of N players, draws each round,
// and has concurrent clients play every table's games with the engine's
// simulator, submitting them deal by deal (POST …/games/{g}/deals) or as
// whole game records (PUT …/games/{g}), then closes the round (resolving
// ties at the advancement line by lot) and draws the next, until the final
// is played or a bound is reached.
//
// Every write carries an Idempotency-Key and is retried with the same key
// after a network error, a 502/503/504, a 429 or a 409
// idempotency_key_in_use, so a run survives a server restart; what each
// client saw is kept per endpoint (latencies and statuses) and every
// acknowledged submission is listed, so that fault tests can compare the
// database with what the server promised.
//
// The package is the engine of cmd/revisor-load and of the fault tests in
// internal/faulttest. It talks to loopback addresses only.
package loadgen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"
)

// Config is one load run.
type Config struct {
	// BaseURL is the server, such as http://127.0.0.1:8080 (loopback only).
	BaseURL string
	// AdminToken creates the tournament.
	AdminToken string
	// Players registered in the tournament (at least 4).
	Players int
	// GamesPerRound each table plays (the tournament's games_per_round).
	GamesPerRound int
	// Clients submit concurrently, each playing one table at a time.
	Clients int
	// Rounds bounds the rounds played; 0 plays until the final is closed.
	Rounds int
	// Seed fixes the simulated games.
	Seed uint64
	// PutShare is the fraction of games submitted whole with PUT; the rest
	// go deal by deal.
	PutShare float64
	// SheetShare is the fraction of deals sent as score-sheet lines; the
	// rest are full deals (cards, exchanges, tricks).
	SheetShare float64
	// Pace is how long a table takes between its deals, as players
	// playing a deal do: each table waits a random 0.5 to 1.5 times Pace
	// before each deal it enters (the first wait is 0 to 1 times Pace, so
	// that tables do not start in step). 0 sends every deal as soon as the
	// answer to the one before came (back to back).
	Pace time.Duration
	// Retries is how many times a request is retried with the same
	// Idempotency-Key after a retryable failure; RetryWait is the first
	// pause (doubling, at most a second).
	Retries   int
	RetryWait time.Duration
	// Client is the HTTP client; nil means one with a 30 s timeout.
	Client *http.Client
	// Progress, when set, receives a line per round.
	Progress io.Writer
	// Stats receives what the clients see, as they see it (a test may
	// watch it to strike mid-run); nil means new stats.
	Stats *Stats
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Drawn, when set, is called after each round is drawn, before it is
	// played (revisor-load starts its viewers there).
	Drawn func(tid string, round int)
}

// CheckLoopback returns an error unless raw is an http(s) URL of this
// machine: load is never pointed at another host.
func CheckLoopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return fmt.Errorf("%q is not an http URL", raw)
	}
	host := u.Hostname()
	if ip := net.ParseIP(host); (ip == nil || !ip.IsLoopback()) && host != "localhost" {
		return fmt.Errorf("load runs against 127.0.0.1 or ::1 only, not %q", host)
	}
	return nil
}

// client sends requests and records what it saw.
type client struct {
	base    string
	http    *http.Client
	stats   *Stats
	retries int
	wait    time.Duration
	now     func() time.Time
}

// response is one answer.
type response struct {
	status int
	body   []byte
}

// problemCode reads the code of a problem+json body ("" when there is none).
func (r response) problemCode() string {
	var p struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(r.body, &p)
	return p.Code
}

// do sends one request, records its latency under endpoint, and retries
// retryable failures with the same key. It returns the last answer, or the
// transport error when no answer came at all.
func (c *client) do(ctx context.Context, endpoint, method, path, token, key, ct string, body []byte) (response, error) {
	wait := c.wait
	for attempt := 0; ; attempt++ {
		r, err := c.once(ctx, endpoint, method, path, token, key, ct, body)
		if !retryable(r, err) || attempt >= c.retries || ctx.Err() != nil {
			return r, err
		}
		c.stats.retry(endpoint)
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return r, errors.Join(err, ctx.Err())
		}
		wait = min(2*wait, time.Second)
	}
}

func (c *client) once(ctx context.Context, endpoint, method, path, token, key, ct string, body []byte) (response, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(body))
	if err != nil {
		return response{}, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", ct)
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	t0 := c.now()
	resp, err := c.http.Do(req)
	var r response
	if err == nil {
		r.status = resp.StatusCode
		r.body, err = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	c.stats.Observe(endpoint, r.status, c.now().Sub(t0), err)
	return r, err
}

// retryable reports whether a request may be sent again with the same key:
// no answer, the server or database unavailable, too many requests, or the
// same key still being handled.
func retryable(r response, err error) bool {
	if err != nil {
		return !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
	}
	switch r.status {
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout, http.StatusTooManyRequests:
		return true
	case http.StatusConflict:
		return r.problemCode() == "idempotency_key_in_use"
	}
	return false
}

// call sends JSON and decodes an answer of status want into out.
func (c *client) call(ctx context.Context, endpoint string, want int, out any, method, path, token, key string, body []byte) error {
	r, err := c.do(ctx, endpoint, method, path, token, key, "application/json", body)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	if r.status != want {
		return &StatusError{Method: method, Path: path, Status: r.status, Code: r.problemCode(), Body: string(r.body)}
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(r.body, out)
}

// StatusError is an answer with an unexpected status.
type StatusError struct {
	Method, Path string
	Status       int
	Code, Body   string
}

func (e *StatusError) Error() string {
	b := e.Body
	if len(b) > 300 {
		b = b[:300] + "…"
	}
	return fmt.Sprintf("%s %s = %d %s", e.Method, e.Path, e.Status, b)
}
