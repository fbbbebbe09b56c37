// Package limit holds bounds on a scenario's values, beyond each field's
// meaning, for the scenario and the packages of its parts to check against
// the same numbers (a leaf); some bounds live instead with the one package
// that checks them. The manual's table of bounds lists them all.
package limit

// The bounds Validate enforces beyond each field's meaning. They keep every
// run's arithmetic finite and every run's cost bounded, whatever a file (or
// a fuzzer) writes: none is near a value an experiment uses (the paper's
// largest scenario has 16 servers, 10 replicates, 210,000 tasks per run, a
// rate of 200 tasks/s and 9 cells). A value beyond one is "out of range".
const (
	// MaxServers bounds a tier's servers: the engine keeps a few words of
	// state per server and scans them to dispatch, so 10⁵ servers is
	// already ~1.6 MB and 10⁵ steps per task.
	MaxServers = 100000
	// MaxSeeds bounds the replicates: every (cell, policy) runs this many
	// times, and 10⁴ already makes a plan of 8·10⁴ runs per cell.
	MaxSeeds = 10000
	// MaxTasks bounds tasks + warmup, the arrivals of one run in tasks
	// mode: 10⁹ events is hours of simulation and 16 GB of latencies.
	MaxTasks = 1000000000
	// MaxArrivals bounds the arrivals one run can expect in duration mode,
	// rate × the largest product of burst factors × (duration +
	// warmup_time): the same 10⁹ as MaxTasks.
	MaxArrivals = 1e9
	// MinRate and MaxRate bound the arrival rate (tasks/s), also once
	// multiplied by the bursts' factors: below 10⁻⁹ the next arrival is
	// 30 years away, beyond 10⁹ a second of arrivals is already MaxArrivals.
	MinRate, MaxRate = 1e-9, 1e9
	// MinSpeed and MaxSpeed bound a server's speed (work units/s). With
	// sizes within [MinMean, MaxMean], a service time stays within
	// [10⁻²¹, 10¹⁵] s: far from float64's limits even for a heavy tail,
	// and MaxSpeed is 10³ times any real machine's ops/s.
	MinSpeed, MaxSpeed = 1e-6, 1e12
	// MinMean and MaxMean bound the mean task size (work units): a size
	// distribution's quantiles and moments then stay finite.
	MinMean, MaxMean = 1e-9, 1e9
	// MaxAlpha bounds the Pareto shape: beyond 10⁶ the sizes equal the
	// mean to within 10⁻⁶ (use deterministic), and (α−1)/α rounds to 1.
	MaxAlpha = 1e6
	// MaxCV bounds a coefficient of variation (lognormal sizes, delays):
	// the lognormal's σ² = ln(1 + cv²) overflows to +Inf for cv ≳ 10¹⁵⁴,
	// and at cv = 100 (σ ≈ 3) one task in 10⁶ is already 10⁵ times the
	// median.
	MaxCV = 100
	// MaxDelay bounds a tier's mean delay, in seconds (11.6 days): a
	// delay longer than any run span is a tier no task returns from.
	MaxDelay = 1e6
	// MinBurstFactor and MaxBurstFactor bound a burst's factor: the rate
	// it gives is bounded by MinRate and MaxRate too, but a factor alone
	// beyond these is a typo for a rate.
	MinBurstFactor, MaxBurstFactor = 1e-6, 1e6
	// MinBurstTime bounds a burst's length and (when not 0) period, in
	// seconds: the arrival sampler steps through every burst edge, so a
	// period of 10⁻⁹ s over a 1 s gap between arrivals is 10⁹ steps for
	// one arrival.
	MinBurstTime = 1e-6
	// MaxSpan bounds duration + warmup_time, and a burst's start, period
	// and length, in seconds (31.7 years): at 10⁹ s a float64 time still
	// resolves 10⁻⁷ s, finer than any delay a tier models.
	MaxSpan = 1e9
	// MaxEdges bounds the burst edges (starts and ends) one run crosses,
	// for the same reason as MinBurstTime: each is a step of the arrival
	// sampler. A run's span is duration + warmup_time, or in tasks mode
	// (tasks + warmup) over the lowest rate.
	MaxEdges = 1e9
	// MaxWindow bounds the estimator's window (s), and MaxPenaltyK its
	// penalty factor: 1 + K·x must stay finite.
	MaxWindow, MaxPenaltyK = MaxSpan, 1e6
	// MaxCells bounds a sweep's values: each is a cell of policies ×
	// seeds runs, and each is validated.
	MaxCells = 10000
	// MaxTiers, MaxBursts and MaxEntries bound the lengths of tiers,
	// arrivals.bursts and policies: Validate checks every cell of a sweep,
	// and each item is work per task in a run.
	MaxTiers, MaxBursts, MaxEntries = 1000, 1000, 1000
)
