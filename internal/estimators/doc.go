// Package estimators holds the queueing formulas and online estimators of
// docs/design.md §2: Erlang B and C, the M/M/c and Allen–Cunneen mean waits, the
// hybrid estimator's model and queue components, its load-dependent blend,
// the utilisation penalty, the squared coefficients of variation of the size
// distributions, and a bounded-memory sliding-window arrival-rate estimator.
//
// Everything here is a pure function or a small value type. Time is always
// passed in (now, in seconds), so the simulator and the HTTP testbed share the
// same code; nothing reads a clock, prints, or draws random numbers. Each
// formula's doc comment gives the formula and a source.
//
// An Estimator bundles one RateWindow per tier with the formulas and a small
// per-tier memo of the model component, so that a routing decision costs a
// few tens of nanoseconds per tier even with hundreds of servers.
package estimators
