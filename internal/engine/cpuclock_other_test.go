//go:build !linux

package engine

import "time"

// threadClock is unavailable here: the ratio falls back on wall time.
func threadClock() (read func() time.Duration, stop func(), ok bool) { return nil, func() {}, false }
