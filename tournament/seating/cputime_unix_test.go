//go:build unix

package seating_test

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the test process has used, so that time
// limits hold on a machine shared with other work.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
