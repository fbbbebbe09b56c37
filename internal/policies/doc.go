// Package policies implements the eight dispatch policies of docs/design.md §3 —
// hybrid, model-only, queue-only, jsq, jsq-s, edge-first, random and oracle —
// and the reference baselines of §3.7 — lwl, sita-e, sita-opt, static-opt
// and jiq — against the read-only dispatch.View, so that the simulator and
// the HTTP testbed run the same code. Its registry lists every policy,
// the production load balancers too, whose algorithms internal/lb
// implements and whose options and weights are read here.
//
// Make builds a policy from a registry entry and a Build (tiers, parameters,
// the scenario's size law and base rate, a random stream); New builds one by
// name from tiers and parameters alone; NewPredictor builds one of the
// three estimators in shadow for the mape experiment. Policies hold their own
// random stream (ties, ε-greedy, random), keep online state only through
// dispatch.Observer, allocate nothing per decision, and are not safe for
// concurrent use: give each run its own.
package policies
