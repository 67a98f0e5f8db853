package main

import (
	"context"
	"net/http"
	"strings"
	"time"
)

// withDeadline gives every request but Server-Sent Event streams a context
// that ends after d. Database calls take the request's context, so a
// database that hangs (a network partition, a stopped VM) makes requests
// fail with 503 database_unavailable after d instead of holding clients and
// connections until the operating system gives up. Event streams live as
// long as their client and are ended by the drain on shutdown instead. d 0
// leaves requests unbounded.
func withDeadline(h http.Handler, d time.Duration) http.Handler {
	if d <= 0 {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
			h.ServeHTTP(w, r)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), d)
		defer cancel()
		h.ServeHTTP(w, r.WithContext(ctx))
	})
}
