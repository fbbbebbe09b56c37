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
package stats
