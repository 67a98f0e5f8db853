package seating_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/tournament/seating"
)

func TestSplitTables(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n    int
		want []int
	}{
		{3, []int{3}},
		{4, []int{4}},
		{6, []int{3, 3}},
		{7, []int{4, 3}},
		{8, []int{4, 4}},
		{9, []int{3, 3, 3}},
		{10, []int{4, 3, 3}},
		{11, []int{4, 4, 3}},
		{12, []int{4, 4, 4}},
		{13, []int{4, 3, 3, 3}},
		{14, []int{4, 4, 3, 3}},
		{15, []int{4, 4, 4, 3}},
		{17, []int{4, 4, 3, 3, 3}},
	}
	for _, tt := range tests {
		got, err := seating.SplitTables(tt.n)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("SplitTables(%d) = %v, %v, want %v, nil", tt.n, got, err, tt.want)
		}
	}
	for n := 3; n <= 1000; n++ {
		if n == 5 {
			continue
		}
		got, err := seating.SplitTables(n)
		threes, sum := 0, 0
		for _, s := range got {
			sum += s
			if s == 3 {
				threes++
			}
		}
		if err != nil || sum != n || threes > 3 {
			t.Errorf("SplitTables(%d) = %v, %v, want tables of 4 and at most 3 tables of 3 summing to %d", n, got, err, n)
		}
	}
}

func TestSplitTablesErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n    int
		want string // part of the message that says what to do
	}{
		{-1, "cannot be negative"},
		{0, "add 3 more"},
		{1, "add 2 more"},
		{2, "add 1 more"},
		{5, "add at least one player"},
	}
	for _, tt := range tests {
		got, err := seating.SplitTables(tt.n)
		var se *seating.SplitError
		if got != nil || !errors.As(err, &se) || se.Players != tt.n || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("SplitTables(%d) = %v, %v, want a *SplitError saying %q", tt.n, got, err, tt.want)
		}
	}
}
