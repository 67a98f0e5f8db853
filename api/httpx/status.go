// Package httpx holds the HTTP pieces that Revisor's two adapters, the JSON
// API (package api) and the web pages (package web), both need: the one
// table from tournament.Kind to HTTP status, and the request middleware that
// the router in package server applies once to every request (request IDs,
// the access log, metrics, recovery from panics, security headers, the body
// limit, and the end of event streams on shutdown).
//
// It exists so that the two adapters are peers: neither imports the other,
// both import this small package, and package server mounts them side by
// side on one echo router. It depends on the domain (tournament) only.
package httpx

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
