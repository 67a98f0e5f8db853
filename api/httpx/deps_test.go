package httpx_test

import (
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/api/httpx"
)

type service struct{}

func (*service) Do() {}

type doer interface{ Do() }

func TestRequiredNamesTheFirstMissingDependency(t *testing.T) {
	t.Parallel()
	type deps struct {
		Ready    func() error
		Service  doer
		Optional doer
		Limit    int
	}
	full := deps{Ready: func() error { return nil }, Service: &service{}}
	for _, tt := range []struct {
		name string
		deps deps
		want string // "" for no error
	}{
		{"every required one", full, ""},
		{"a nil func", deps{Service: &service{}}, "x.New: the dependency Ready is missing"},
		{"a nil interface", deps{Ready: full.Ready}, "x.New: the dependency Service is missing"},
		{"an interface holding a nil pointer", deps{Ready: full.Ready, Service: (*service)(nil)}, "x.New: the dependency Service is missing"},
		{"the first of two", deps{}, "x.New: the dependency Ready is missing"},
	} {
		err := httpx.Required("x.New", tt.deps, "Optional")
		if got := errText(err); got != tt.want {
			t.Errorf("%s: Required = %q, want %q", tt.name, got, tt.want)
		}
	}
	if err := httpx.Required("x.New", full); err == nil || !strings.Contains(err.Error(), "Optional") {
		t.Errorf("Required without Optional listed as optional = %v, want an error naming Optional", err)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
