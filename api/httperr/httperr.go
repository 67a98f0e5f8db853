// Package httperr maps Revisor's application errors to HTTP status codes.
// It holds the one table from tournament.Kind to status, so that the API's
// problem+json responses and the web pages' error pages always agree (the
// web pages cannot import package api, which mounts them).
package httperr

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/tournament"
)

// Status returns the HTTP status of an application error of the given
// kind; an unknown kind is a server error (500).
func Status(kind tournament.Kind) int {
	switch kind {
	case tournament.KindInvalid:
		return http.StatusBadRequest
	case tournament.KindUnauthorized:
		return http.StatusUnauthorized
	case tournament.KindForbidden:
		return http.StatusForbidden
	case tournament.KindNotFound:
		return http.StatusNotFound
	case tournament.KindConflict:
		return http.StatusConflict
	case tournament.KindTooLarge:
		return http.StatusRequestEntityTooLarge
	case tournament.KindRejected:
		return http.StatusUnprocessableEntity
	case tournament.KindTooMany:
		return http.StatusTooManyRequests
	case tournament.KindUnavailable:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// StatusOf returns the HTTP status of any error a handler returns: the
// status of the application error in err's chain, else the code of an
// echo.HTTPError (routing, body limits), else 500.
func StatusOf(err error) int {
	var te *tournament.Error
	if errors.As(err, &te) {
		return Status(te.Kind)
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		return he.Code
	}
	return http.StatusInternalServerError
}
