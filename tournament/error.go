// Package tournament holds Revisor's domain: tournaments, players, rounds,
// seating, results, disputes and standings, and the interfaces its storage
// implements. It depends only on the engine; HTTP and SQL live in adapters.
package tournament

import (
	"errors"
	"fmt"
)

// Kind classifies an application error by what the caller did wrong. The API
// maps each kind to one HTTP status in a single table.
type Kind string

// The kinds of application error.
const (
	KindInvalid      Kind = "invalid"      // malformed request (400)
	KindUnauthorized Kind = "unauthorized" // no or unknown token (401)
	KindForbidden    Kind = "forbidden"    // token without the right (403)
	KindNotFound     Kind = "not_found"    // no such resource (404)
	KindConflict     Kind = "conflict"     // conflicts with the current state (409)
	KindTooLarge     Kind = "too_large"    // body too large (413)
	KindRejected     Kind = "rejected"     // well-formed but invalid by the rules (422)
	KindTooMany      Kind = "too_many"     // rate limited (429)
	KindUnavailable  Kind = "unavailable"  // a dependency such as the database is down (503)
	KindInternal     Kind = "internal"     // a bug or an unexpected failure (500)
)

// Error is Revisor's application error. Code is a stable snake_case string
// that clients may rely on; Message is for people. Details, when set, is
// extra machine-readable context (for example the engine's error list) that
// the API adds to the problem document.
type Error struct {
	Kind    Kind
	Code    string
	Message string
	Details map[string]any
	Err     error // the underlying cause, never shown to clients
}

// Error implements the error interface.
func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an application error of the given kind and code.
func Errorf(kind Kind, code, format string, args ...any) *Error {
	return &Error{Kind: kind, Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorKind returns the kind of the application error in err's chain, or
// KindInternal when there is none.
func ErrorKind(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return KindInternal
}

// ErrorCode returns the code of the application error in err's chain, or
// "internal" when there is none.
func ErrorCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return "internal"
}

// ErrorMessage returns the human message of the application error in err's
// chain, or a generic one that leaks nothing for other errors.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "An internal error occurred."
}
