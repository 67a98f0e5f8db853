package tournament

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/revisor-sm/revisor/engine"
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
// that clients may rely on (codes.go names them); Message is for people.
// Details, when set, is extra machine-readable context that the API adds to
// the problem document as it is; Go code reads the context it needs through
// the typed accessors (Problems, Field, FieldProblems, Ties), which the constructors set
// together with Details.
type Error struct {
	Kind    Kind
	Code    string
	Message string
	Details map[string]any
	Err     error // the underlying cause, never shown to clients

	problems []engine.Problem
	field    string
	fields   []FieldProblem
	ties     []OpenTie

	stored     json.RawMessage // deal_exists: the deal the game holds
	storedDeal int
}

// OpenTie is a tie the tiebreaks leave open at an advancement line, with
// the tied players' names (ID and Name set), as an unresolved_tie error
// reports it.
type OpenTie struct {
	Table   int
	Players []Player
	Places  int
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

// InvalidField returns a 400 naming the field of a request at fault: its
// code is "invalid_<field>", Field returns field and the problem document
// has a "field" member.
func InvalidField(field, format string, args ...any) *Error {
	e := Errorf(KindInvalid, "invalid_"+field, format, args...)
	e.field, e.Details = field, map[string]any{"field": field}
	return e
}

// InvalidParameter returns a 400 naming the query parameter at fault: its
// code is "invalid_<name>" and the problem document has a "parameter"
// member.
func InvalidParameter(name, format string, args ...any) *Error {
	e := Errorf(KindInvalid, "invalid_"+name, format, args...)
	e.Details = map[string]any{"parameter": name}
	return e
}

// RoundNotFound returns the 404 for round n, which does not exist.
func RoundNotFound(n int) *Error {
	return Errorf(KindNotFound, CodeRoundNotFound, "round %d not found", n)
}

// RoundParamNotFound returns the 404 for a round named by a request
// parameter that is no round's number.
func RoundParamNotFound(param string) *Error {
	return Errorf(KindNotFound, CodeRoundNotFound, "round %q not found", param)
}

// WithProblems sets the engine problems of a rejected record, which the
// problem document lists as "errors".
func (e *Error) WithProblems(ps []engine.Problem) *Error {
	if ps == nil {
		ps = []engine.Problem{}
	}
	e.problems, e.Details = ps, map[string]any{"errors": ps}
	return e
}

// Problems returns the engine problems of a rejected record, or nil.
func (e *Error) Problems() []engine.Problem { return e.problems }

// Field returns the request field an InvalidField error names, or "".
func (e *Error) Field() string { return e.field }

// FieldProblems returns the fields an invalid_settings error reports,
// each with its problem, or nil.
func (e *Error) FieldProblems() []FieldProblem { return e.fields }

// Ties returns the ties an unresolved_tie error reports, or nil.
func (e *Error) Ties() []OpenTie { return e.ties }

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
	return CodeInternal
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
