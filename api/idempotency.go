package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/internal/tokens"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/referee"
)

// headerIdempotencyKey is the request header of the Idempotency-Key draft
// (draft-ietf-httpapi-idempotency-key-header).
const (
	headerIdempotencyKey = "Idempotency-Key"
	headerReplayed       = "Idempotent-Replayed"
	maxIdempotencyKey    = 255
	// MaxStoredResponse is the largest answer kept for replay: 4 MiB.
	// A larger one is not stored, and a retry runs the request again.
	MaxStoredResponse = 4 << 20
)

// IdempotencyStore keeps the first response to each request that carried an
// Idempotency-Key (postgres.Idempotency implements it). A scope separates
// clients and endpoints; a fingerprint identifies the request body.
type IdempotencyStore interface {
	// Claim returns (nil, nil) when the caller now owns the key and handles
	// the request; the stored response when the same request was answered
	// before; a rejected error when the key came with another body; a
	// conflict error while the first request is still being handled.
	Claim(ctx context.Context, scope, key string, fingerprint []byte) ([]byte, error)
	// Complete stores the response of a claimed key.
	Complete(ctx context.Context, scope, key string, response []byte) error
	// Release forgets a claimed key whose request failed with a server error.
	Release(ctx context.Context, scope, key string) error
	// Renew keeps a claim of a request still being handled from going
	// stale (being taken over by a retry, as if its server had died).
	Renew(ctx context.Context, scope, key string) error
}

// Timing of claims: a request in flight renews its claim every
// claimRenewEvery; a claim whose release failed (the database was down
// when the request failed) is released again every releaseRetryEvery for
// up to releaseRetryFor, so that retries are not told "in use" until the
// claim goes stale.
const (
	releaseRetryEvery = 500 * time.Millisecond
	releaseRetryFor   = 20 * time.Second
)

var claimRenewEvery = 5 * time.Second // a variable for TestClaimRenewal

// storedResponse is how a response is kept for replay.
type storedResponse struct {
	Status      int    `json:"status"`
	ContentType string `json:"content_type,omitempty"`
	Location    string `json:"location,omitempty"`
	// CacheControl keeps "no-store" on replays of answers that carry secrets.
	CacheControl string `json:"cache_control,omitempty"`
	Body         []byte `json:"body"`
}

// idempotent makes writes (POST, PUT, PATCH, DELETE) that carry an
// Idempotency-Key safe to retry: the first response is stored and repeated
// for the same key, credentials, method, path and body; the same key with
// another body is a 422. Requests without the header, and reads, pass
// through; so do requests without credentials (anonymous answers are never
// stored: anyone could fill the store with them). See storable for the
// answers that are not kept.
func (s *Server) idempotent(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		key := req.Header.Get(headerIdempotencyKey)
		if key == "" || !isWrite(req.Method) || c.Path() == "" ||
			req.Header.Get(echo.HeaderAuthorization) == "" {
			return next(c)
		}
		if !httpx.PrintableToken(key, maxIdempotencyKey) {
			return tournament.Errorf(tournament.KindInvalid, tournament.CodeInvalidIdempotencyKey,
				"the Idempotency-Key must be 1 to %d printable characters without spaces", maxIdempotencyKey)
		}
		// Authenticate first: a stored answer is replayed only to a
		// credential that is still good (a revoked referee token, an old
		// round's code get their route's 401, not their old answers). A
		// request whose credential is not good is answered as if it had
		// no key: nothing replayed, nothing stored.
		if _, err := s.authenticate(c); err != nil {
			return next(c)
		}
		body, err := io.ReadAll(req.Body)
		if err != nil {
			return httpx.BodyReadError(err)
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		scope, fp := idempotencyScope(req), fingerprint(req, body)
		if ks, ok := s.deps.Idempotency.(app.KeyedStore); ok && s.storeClaims[c.Path()] {
			ru := &requestUnit{key: key}
			ru.unit = app.NewUnit(ks, app.Key{Scope: scope, Key: key, Fingerprint: fp}, ru.answer)
			c.Set(unitKey, ru)
			return s.handleOnce(c, next, scope, key, ru.unit)
		}
		if at, ok := s.deps.Idempotency.(app.Atomic); ok {
			return s.handleAtomically(c, next, at, scope, key, fp)
		}
		ctx := context.WithoutCancel(req.Context())
		stored, err := s.deps.Idempotency.Claim(ctx, scope, key, fp)
		if err != nil {
			return err
		}
		if stored != nil {
			return replay(c, unseal(req, key, stored))
		}
		return s.handleOnce(c, next, scope, key, nil)
	}
}

// requestUnit is the unit of work (app.Unit) of a request whose key the
// store claims with the command's first read and answers with its write:
// the routes of Server.storeClaims. Their handler runs its command in it
// (unitOf) and says how the command's outcome is answered (encode,
// prepareAnswer).
type requestUnit struct {
	unit   *app.Unit
	key    string
	encode func(outcome any) ([]byte, error)
}

// answer is the answer to the command's outcome as the handler encodes
// it; nil when it does not.
func (ru *requestUnit) answer(outcome any) ([]byte, error) {
	if ru.encode == nil {
		return nil, nil
	}
	return ru.encode(outcome)
}

// unitKey is where the request's unit is kept in its echo.Context.
const unitKey = "revisor.unit"

// unitOf returns the request's unit of work with encode as the answer to
// its command's outcome, and the unit's Wrap to run the command in; nil
// and nil when the request has none.
func unitOf(c echo.Context, encode func(c echo.Context, key string, outcome any) ([]byte, error)) tournament.Wrap {
	if ru := requestUnitOf(c, encode); ru != nil {
		return ru.unit.Wrap
	}
	return nil
}

// disputeVia is unitOf for a dispute: the unit's decoration of the
// referees' opener (app.Unit.Disputes); nil when the request has none.
func disputeVia(c echo.Context, encode func(c echo.Context, key string, outcome any) ([]byte, error)) referee.OpenVia {
	if ru := requestUnitOf(c, encode); ru != nil {
		return ru.unit.Disputes
	}
	return nil
}

// requestUnitOf returns the request's unit with encode as the answer to
// its command's outcome; nil when the request has none.
func requestUnitOf(c echo.Context, encode func(c echo.Context, key string, outcome any) ([]byte, error)) *requestUnit {
	ru, _ := c.Get(unitKey).(*requestUnit)
	if ru == nil {
		return nil
	}
	ru.encode = func(outcome any) ([]byte, error) { return encode(c, ru.key, outcome) }
	return ru
}

// preparedKey is where a handler keeps the answer it prepared for the
// store (prepareAnswer), so that handleOnce can tell it is what was sent.
const preparedKey = "revisor.prepared-answer"

// handleOnce runs the handler for a claimed key and stores its response.
// With u, the key is not claimed yet: the command's unit of work claims
// it with the command's first read (or after the command, when it was
// refused before it read), and stores the answer with the write when it
// can.
func (s *Server) handleOnce(c echo.Context, next echo.HandlerFunc, scope, key string, u *app.Unit) (err error) {
	ctx := context.WithoutCancel(c.Request().Context())
	owned := func() bool { return u == nil || u.Owned() }
	res := c.Response()
	rec := &recorder{ResponseWriter: res.Writer}
	res.Writer = rec
	completed := false
	stopRenew := s.renewClaim(ctx, scope, key, owned)
	defer func() {
		stopRenew()
		res.Writer = rec.ResponseWriter
		if !completed && owned() { // a panic or a server error: let a retry try again
			if rerr := s.deps.Idempotency.Release(ctx, scope, key); rerr != nil {
				s.log.Error("release idempotency key", "error", rerr.Error())
				go s.retryRelease(ctx, scope, key)
			}
		}
	}()
	rctx, cancel := toTheEnd(c.Request())
	defer cancel()
	c.SetRequest(c.Request().WithContext(rctx))
	herr := next(c)
	if u != nil && !u.Made() {
		if res.Committed { // a route in storeClaims must not answer before its key is claimed
			s.log.Error("idempotency key not claimed before the answer", "path", c.Path())
			return nil
		}
		// The handler stopped before the store's first read (its request
		// was refused): nothing was written, the key is claimed now.
		_ = u.Claim(rctx)
	}
	if u != nil && !u.Owned() {
		if stored := u.Stored(); stored != nil {
			return replay(c, unseal(c.Request(), key, stored))
		}
		return u.ClaimErr()
	}
	if herr != nil {
		c.Error(herr) // write the problem now, so that it is recorded
	}
	if !storable(c, res.Status, rec.size) {
		return nil
	}
	saved, err := responseRecord(res.Status, res.Header().Get(echo.HeaderContentType), res.Header(), rec.body.Bytes())
	if prepared, _ := c.Get(preparedKey).([]byte); err == nil && u != nil && u.Answer() != nil && bytes.Equal(saved, prepared) {
		completed = true // stored with the write
		return nil
	}
	if err == nil {
		saved, err = seal(c.Request(), key, saved)
	}
	if err == nil {
		err = s.deps.Idempotency.Complete(ctx, scope, key, saved)
	}
	if err != nil {
		s.log.Error("store idempotent response", "error", err.Error())
		return nil
	}
	completed = true
	return nil
}

// handleAtomically runs the handler of a request whose key the store
// claims in one transaction with the handler's writes and the answer
// (app.Atomic): the claim, the command and the stored answer commit
// together or not at all. The answer is held back until the transaction
// has committed, so that a client is never told of a write that did not
// commit; a send of the same key while the first runs waits for its end
// and is answered with its answer.
func (s *Server) handleAtomically(c echo.Context, next echo.HandlerFunc, at app.Atomic, scope, key string, fp []byte) (err error) {
	req := c.Request()
	ctx, cancel := toTheEnd(req)
	defer cancel()
	res := c.Response()
	w := res.Writer
	held := &bufferWriter{header: w.Header().Clone()} // the answer, until it may be sent
	res.Writer = held
	// afresh lets the response be written anew: the held answer was not
	// sent (a replay, a refusal, a failed commit or a panic answers).
	afresh := func() {
		res.Writer, res.Status, res.Size, res.Committed = w, http.StatusOK, 0, false
		c.SetRequest(req)
	}
	defer func() {
		if p := recover(); p != nil {
			afresh()
			panic(p)
		}
	}()
	stored, claimErr, err := at.Atomically(ctx, scope, key, fp, func(ctx context.Context) ([]byte, bool) {
		c.SetRequest(req.WithContext(ctx))
		if herr := next(c); herr != nil {
			c.Error(herr) // write the problem now, so that it is stored
		}
		if !storable(c, res.Status, held.body.Len()) {
			return nil, false
		}
		saved, err := responseRecord(res.Status, held.header.Get(echo.HeaderContentType), held.header, held.body.Bytes())
		if err == nil {
			saved, err = seal(req, key, saved)
		}
		if err != nil {
			s.log.Error("store idempotent response", "error", err.Error())
			return nil, false
		}
		return saved, true
	})
	switch {
	case err != nil:
		afresh()
		return err
	case claimErr != nil:
		afresh()
		return claimErr
	case stored != nil:
		afresh()
		return replay(c, unseal(req, key, stored))
	}
	res.Writer = w
	c.SetRequest(req)
	maps.Copy(w.Header(), held.header)
	w.WriteHeader(res.Status)
	_, err = w.Write(held.body.Bytes())
	return err
}

// toTheEnd is the request's context for a write that began: without its
// cancellation, so that the write runs to its end when the client hangs up
// and its answer is stored for the retry (cancelled halfway, it could
// commit while the handler reports "context canceled", a 5xx never
// stored, and the retry under the same key would write it again); with
// its deadline.
func toTheEnd(r *http.Request) (context.Context, context.CancelFunc) {
	ctx := context.WithoutCancel(r.Context())
	if d, ok := r.Context().Deadline(); ok {
		return context.WithDeadline(ctx, d)
	}
	return ctx, func() {}
}

// responseRecord is an answer as it is kept for a replay (storedResponse,
// before seal): its status, content type, body, and the Location and
// Cache-Control of its header h.
func responseRecord(status int, contentType string, h http.Header, body []byte) ([]byte, error) {
	return json.Marshal(storedResponse{Status: status, ContentType: contentType, Location: h.Get(echo.HeaderLocation),
		CacheControl: h.Get(echo.HeaderCacheControl), Body: body})
}

// storable reports whether an answer is kept for replay. Server errors
// (5xx) and 429 are not: the client is told to retry them with the same
// key, and the retry must run again. Answers to callers whose token did not
// authenticate (401, public routes) are not: storing them would let anyone
// fill the store. Answers larger than MaxStoredResponse are not either.
func storable(c echo.Context, status, size int) bool {
	return status < http.StatusInternalServerError && status != http.StatusTooManyRequests &&
		PrincipalOf(c).Role != tournament.RolePublic && size <= MaxStoredResponse
}

// renewClaim renews the claim on key every claimRenewEvery until the
// returned stop is called, once owned says the request holds it
// (app.Renewing).
func (s *Server) renewClaim(ctx context.Context, scope, key string, owned func() bool) (stop func()) {
	return app.Renewing(ctx, s.deps.Idempotency, scope, key, claimRenewEvery, owned, s.log)
}

// retryRelease releases a claim whose release failed, until it succeeds or
// releaseRetryFor has passed (the claim has gone stale by then).
func (s *Server) retryRelease(ctx context.Context, scope, key string) {
	deadline := time.Now().Add(releaseRetryFor)
	for time.Now().Before(deadline) {
		time.Sleep(releaseRetryEvery)
		if err := s.deps.Idempotency.Release(ctx, scope, key); err == nil {
			return
		}
	}
	s.log.Error("release idempotency key: gave up; the claim goes stale instead", "key", key)
}

// prepareAnswer builds the answer (status and v as JSON) a handler is
// about to send, sealed for the idempotency store, for a write that stores
// it with its own statement (requestUnit.encode). It is made by
// the router's JSON serializer, as c.JSON makes it; handleOnce stores the
// answer sent again in the unlikely case it differs.
func prepareAnswer(c echo.Context, key string, status int, v any) ([]byte, error) {
	w := &bufferWriter{header: http.Header{}}
	if err := c.Echo().JSONSerializer.Serialize(c.Echo().NewContext(c.Request(), w), v, ""); err != nil {
		return nil, err
	}
	plain, err := responseRecord(status, echo.MIMEApplicationJSON, c.Response().Header(), w.body.Bytes())
	if err != nil {
		return nil, err
	}
	c.Set(preparedKey, plain)
	return seal(c.Request(), key, plain)
}

// bufferWriter is a ResponseWriter into memory (its status is the
// echo.Response's).
type bufferWriter struct {
	header http.Header
	body   bytes.Buffer
}

func (w *bufferWriter) Header() http.Header         { return w.header }
func (w *bufferWriter) Write(p []byte) (int, error) { return w.body.Write(p) }
func (w *bufferWriter) WriteHeader(int)             {}

// replay writes a stored response again.
func replay(c echo.Context, stored []byte) error {
	var r storedResponse
	if err := json.Unmarshal(stored, &r); err != nil {
		return &tournament.Error{Kind: tournament.KindInternal, Code: tournament.CodeInternal, Err: err}
	}
	h := c.Response().Header()
	h.Set(headerReplayed, "true")
	if r.Location != "" {
		h.Set(echo.HeaderLocation, r.Location)
	}
	if r.CacheControl != "" {
		h.Set(echo.HeaderCacheControl, r.CacheControl)
	}
	return c.Blob(r.Status, r.ContentType, r.Body)
}

// seal encrypts a response for storage under the request's credentials
// and its Idempotency-Key (tokens.SealAnswer): answers can carry secrets
// (the organizer token of a new tournament, a new referee token) and
// tokens are stored only hashed; sealed, a stored answer opens only for a
// retry that presents the same credentials and key.
func seal(r *http.Request, key string, plain []byte) ([]byte, error) {
	return tokens.SealAnswer(r.Header.Get(echo.HeaderAuthorization), key, plain)
}

// unseal opens a stored response; one that does not open stays as it is
// (replay then answers a server error, and the client may retry).
func unseal(r *http.Request, key string, stored []byte) []byte {
	if plain, ok := tokens.OpenAnswer(r.Header.Get(echo.HeaderAuthorization), key, stored); ok {
		return plain
	}
	return stored
}

// idempotencyScope keeps keys of different clients and endpoints apart: the
// same key from another token, or on another path, is another key.
func idempotencyScope(r *http.Request) string {
	cred := sha256.Sum256([]byte(r.Header.Get(echo.HeaderAuthorization)))
	return r.Method + " " + r.URL.Path + " " + hex.EncodeToString(cred[:8])
}

// fingerprint identifies a request's content: its query, type and body.
func fingerprint(r *http.Request, body []byte) []byte {
	h := sha256.New()
	io.WriteString(h, r.URL.RawQuery+"\n"+r.Header.Get(echo.HeaderContentType)+"\n")
	h.Write(body)
	return h.Sum(nil)
}

func isWrite(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}

// recorder copies what a handler writes so that it can be stored, up to
// MaxStoredResponse bytes; past that it keeps nothing (the answer is then
// not stored) and counts on.
type recorder struct {
	http.ResponseWriter
	body bytes.Buffer
	size int
}

func (r *recorder) Write(p []byte) (int, error) {
	r.size += len(p)
	switch {
	case r.size <= MaxStoredResponse:
		r.body.Write(p)
	case r.body.Cap() > 0:
		r.body = bytes.Buffer{}
	}
	return r.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the connection.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
