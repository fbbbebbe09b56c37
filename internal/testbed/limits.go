package testbed

// In-flight limit from the file-descriptor limit. At 2,000 requests/s an
// unbounded client ran out of descriptors ("too many open files") and half
// its requests failed; the client now refuses to open more sockets than the
// process can hold, and counts what it could not send as failed.

// Bounds of InFlightLimit.
const (
	// MinInFlightLimit is the smallest limit InFlightLimit returns: below it a
	// run would be all refusals, and a process with so few descriptors is
	// misconfigured anyway (the run's failure share will say so).
	MinInFlightLimit = 16
	// MaxInFlightLimit caps the limit when the descriptor limit is huge or
	// unlimited: Linux's default ephemeral port range (32768–60999) allows
	// about 28,000 connections to one tier, and connections closing linger
	// in TIME_WAIT, so more requests in flight would fail to connect anyway.
	MaxInFlightLimit = 1 << 14
	// fdHeadroom is kept for what is not a request: the listeners, the
	// health checks, stdio, output files, the runtime's own descriptors.
	fdHeadroom = 128
)

// InFlightLimit is how many requests may be in flight at once in a process
// whose soft RLIMIT_NOFILE is soft:
//
//	max(MinInFlightLimit, min(MaxInFlightLimit, (soft − 128) / 4))
//
// Four descriptors per request, because with the tiers served by the same
// process (emulate's default) each connection holds two (the client's end
// and the server's), and the connection pool may keep as many idle
// connections as there are active ones (an idle connection to one tier while
// another tier is busy). It is a pure function, for tests; RaiseFDLimit reads
// the real limit.
func InFlightLimit(soft uint64) int {
	if soft <= fdHeadroom+4*MinInFlightLimit {
		return MinInFlightLimit
	}
	n := (soft - fdHeadroom) / 4
	if n > MaxInFlightLimit {
		return MaxInFlightLimit
	}
	return max(MinInFlightLimit, int(n))
}

// FDLimit is the process's descriptor limit as RaiseFDLimit found and left it.
type FDLimit struct {
	Before, Soft, Hard uint64 // the soft limit found, the soft limit now, the hard limit
	// Err is why the limit could not be read or raised (nil when it was);
	// Soft is then what was read, or 0 when nothing could be.
	Err error
}

// Raised reports whether RaiseFDLimit raised the soft limit.
func (l FDLimit) Raised() bool { return l.Soft > l.Before }
