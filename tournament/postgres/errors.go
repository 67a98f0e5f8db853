package postgres

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/revisor-sm/revisor/tournament"
)

// PostgreSQL error codes the store gives a meaning to.
const (
	codeUniqueViolation     = "23505"
	codeForeignKeyViolation = "23503"
	codeCheckViolation      = "23514"
	codeBadCharacter        = "22021" // a NUL or bytes that are not UTF-8 in text
	codeUntranslatable      = "22P05" // \u0000 in jsonb
	codeSerialization       = "40001"
	codeDeadlock            = "40P01"
	codeTooManyConnections  = "53300"
	codeAdminShutdown       = "57P01"
	codeCannotConnectNow    = "57P03"
	// codeReadOnly is a write sent to a standby: a connection made to the
	// primary before a failover that now serves read-only.
	codeReadOnly = "25006"
)

// MapError turns an error from pgx into a tournament error of the right kind,
// keeping err as its cause (errors.Is and errors.As still see it). subject
// names what was read or written ("tournament", "player") and becomes part of
// the code and the message:
//
//   - pgx.ErrNoRows → not found, code "<subject>_not_found";
//   - unique violation (23505) → conflict, code "<subject>_exists";
//   - foreign key (23503) or check (23514) violation → conflict or rejected;
//   - text PostgreSQL cannot hold (NUL, not UTF-8: 22021, 22P05) → invalid,
//     code "invalid_text" (a 400, not a server error);
//   - serialization failure or deadlock → conflict "concurrent_update";
//   - the database down, unreachable or refusing connections → unavailable;
//   - a tournament error is returned as it is; anything else is internal.
//
// MapError(nil, …) is nil. Spaces in subject become underscores in the code.
func MapError(err error, subject string) error {
	if err == nil {
		return nil
	}
	var te *tournament.Error
	if errors.As(err, &te) {
		return err
	}
	code := strings.ReplaceAll(subject, " ", "_")
	wrap := func(kind tournament.Kind, c, msg string) error {
		return &tournament.Error{Kind: kind, Code: c, Message: msg, Err: err}
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return wrap(tournament.KindNotFound, code+"_not_found", subject+" not found")
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case pgErr.Code == codeUniqueViolation:
			return wrap(tournament.KindConflict, code+"_exists", subject+" already exists")
		case pgErr.Code == codeForeignKeyViolation:
			return wrap(tournament.KindConflict, tournament.CodeReferenceViolation, subject+" refers to or is referred to by something that does not allow the change")
		case pgErr.Code == codeCheckViolation:
			return wrap(tournament.KindRejected, tournament.CodeConstraintViolation, subject+" breaks a rule of the data")
		case pgErr.Code == codeBadCharacter || pgErr.Code == codeUntranslatable:
			return wrap(tournament.KindInvalid, tournament.CodeInvalidText, subject+": the text holds a NUL character or bytes that are not UTF-8")
		case pgErr.Code == codeSerialization || pgErr.Code == codeDeadlock:
			return wrap(tournament.KindConflict, tournament.CodeConcurrentUpdate, subject+" was changed at the same time by another request; try again")
		case unavailableCode(pgErr.Code):
			return wrap(tournament.KindUnavailable, tournament.CodeDatabaseUnavailable, "the database is not available")
		}
	}
	if isConnectionFailure(err) {
		return wrap(tournament.KindUnavailable, tournament.CodeDatabaseUnavailable, "the database is not available")
	}
	return wrap(tournament.KindInternal, tournament.CodeInternal, "An internal error occurred.")
}

// unavailableCode reports whether a PostgreSQL error code means the server
// cannot serve now: class 08 (connection exception) and the shutdown and
// overload codes.
func unavailableCode(code string) bool {
	return strings.HasPrefix(code, "08") || code == codeTooManyConnections ||
		code == codeAdminShutdown || code == codeCannotConnectNow || code == codeReadOnly
}

// isConnectionFailure reports whether err means the database could not be
// reached or the connection broke, rather than that a query was wrong.
func isConnectionFailure(err error) bool {
	var connectErr *pgconn.ConnectError
	var netErr net.Error
	// A server killed in the middle of a query (a failover's old
	// primary) ends the connection without a word: EOF, or "conn closed"
	// for the next use of it.
	return errors.As(err, &connectErr) || errors.As(err, &netErr) ||
		errors.Is(err, context.DeadlineExceeded) || pgconn.SafeToRetry(err) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, pgconn.ErrConnClosed)
}
