package engine

// What the external benchmarks of package engine_test (the registry's
// policies, which package engine may not import) share with the internal
// ones: the scenario, the timing against the floor, the tier builders.
var (
	ThreeTier   = threeTier
	Timed       = timed
	TimedSlices = timedSlices
	NewTier     = tier
	MustDist    = mustDist
	MustDelay   = mustDelay
)

// ThreadClock is the thread's CPU clock of the cost benchmarks.
var ThreadClock = threadClock

// RegistryPolicy and SameRuns are the scale tests' registry policy on a
// stream of its own, and their comparison of two runs.
var (
	RegistryPolicy = registryPolicy
	SameRuns       = sameRuns
)
