// Package policies implements the eight dispatch policies of docs/design.md §3 —
// hybrid, model-only, queue-only, jsq, jsq-s, edge-first, random and oracle —
// against the read-only dispatch.View, so that the simulator and the HTTP
// testbed run the same code.
//
// New builds a policy by its scenario name; NewPredictor builds one of the
// three estimators in shadow for the mape experiment. Policies hold their own
// random stream (ties, ε-greedy, random), keep online state only through
// dispatch.Observer, allocate nothing per decision, and are not safe for
// concurrent use: give each run its own.
package policies
