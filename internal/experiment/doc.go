// Package experiment fans a scenario out into runs — every (cell, policy,
// replicate) — executes them on a pool of workers, and turns each engine
// result into a results.Run. Results are written by job index, so they do not
// depend on how many workers ran them or in which order they finished.
package experiment
