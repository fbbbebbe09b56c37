// Package stats holds the output analysis that decides how long to simulate
// and what the results allow one to say: confidence intervals of a mean
// (Student t) and of a median (order statistics), the sequential
// relative-precision rule that adds replicates until every policy of a cell
// is precise enough, the MSER-5 truncation of a warm-up, batch means for one
// long run with the von Neumann test of their independence, paired t tests
// with Holm's step-down adjustment and the ranking they support, and the
// coverage study that checks the sequential rule against a known value.
//
// Every interval is at the 95% level (Level), the level of summary.csv's
// intervals; every multiple comparison controls the family-wise error at
// Alpha = 5%.
//
// Everything here is a pure function or a small value type: nothing prints,
// reads a file or a clock, starts a goroutine or draws a random number. The
// coverage study takes the replicates from a function its caller supplies,
// which owns the randomness.
//
// Each formula's doc comment gives it and its source; docs/correctness.md
// ("Precision, warm-up and rankings: the statistics") gathers the methods,
// their citations and the measured coverage.
//
// # Wiring
//
// What each command-line feature calls:
//
//   - --precision R with --max-seeds N and --precision-on: NewRule(R, seeds,
//     N, Mean) for the mean latency, Median for p95 or p99. For each cell,
//     Decide(values) with values[policy][replicate] the runs' values so far;
//     run the cell's replicates up to Decision.Next and look again, until
//     Stop. A cell's precision column is Decision.Precision[policy], its
//     precision_met Decision.Met; Capped marks a cell stopped by the cap.
//   - warmup: auto: MSER5(a run's latencies, in the order the run measures
//     them).Discard is the run's warmup_tasks; TooShort says the run is too
//     short to show its steady state.
//   - --batches K: BatchMeans(a run's latencies after its warm-up, K): the
//     interval, Lag1, and Correlated when the batches are too short.
//   - compare and the report: Compare(values, Lower) for latencies: the
//     pairs with their Holm-adjusted p-values, and the ranks.
package stats
