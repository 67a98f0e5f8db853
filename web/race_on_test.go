//go:build race

package web_test

// raceDetector is true when the tests run under -race, which slows code
// several times over: latency limits are not measured then.
const raceDetector = true
