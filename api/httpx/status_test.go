package httpx_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/tournament"
)

func TestStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		kind tournament.Kind
		want int
	}{
		{tournament.KindInvalid, http.StatusBadRequest},
		{tournament.KindUnauthorized, http.StatusUnauthorized},
		{tournament.KindForbidden, http.StatusForbidden},
		{tournament.KindNotFound, http.StatusNotFound},
		{tournament.KindConflict, http.StatusConflict},
		{tournament.KindTooLarge, http.StatusRequestEntityTooLarge},
		{tournament.KindRejected, http.StatusUnprocessableEntity},
		{tournament.KindTooMany, http.StatusTooManyRequests},
		{tournament.KindUnavailable, http.StatusServiceUnavailable},
		{tournament.KindInternal, http.StatusInternalServerError},
		{tournament.Kind("no_such_kind"), http.StatusInternalServerError},
	}
	for _, tt := range tests {
		if got := httpx.Status(tt.kind); got != tt.want {
			t.Errorf("Status(%q) = %d, want %d", tt.kind, got, tt.want)
		}
	}
}

func TestStatusOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"application error", tournament.Errorf(tournament.KindConflict, "x", "x"), http.StatusConflict},
		{"wrapped application error", fmt.Errorf("ctx: %w", tournament.Errorf(tournament.KindRejected, "x", "x")), http.StatusUnprocessableEntity},
		{"echo error", echo.NewHTTPError(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed},
		{"wrapped echo error", fmt.Errorf("ctx: %w", echo.NewHTTPError(http.StatusRequestEntityTooLarge)), http.StatusRequestEntityTooLarge},
		{"plain error", fmt.Errorf("boom"), http.StatusInternalServerError},
	}
	for _, tt := range tests {
		if got := httpx.StatusOf(tt.err); got != tt.want {
			t.Errorf("StatusOf(%s) = %d, want %d", tt.name, got, tt.want)
		}
	}
}
