//go:build !race

package seating_test

const raceEnabled = false
