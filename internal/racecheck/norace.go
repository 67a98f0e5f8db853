//go:build !race

package racecheck

// Enabled is true when the code is built with -race, which slows it
// several times over: time limits are not measured then.
const Enabled = false
