//go:build !race

package web_test

// raceDetector is true when the tests run under -race.
const raceDetector = false
