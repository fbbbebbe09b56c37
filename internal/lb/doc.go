// Package lb implements the production load balancers' algorithms
// (docs/policies.md, "Production load balancers"): HAProxy's and nginx's
// round-robin, nginx's smooth weighted round-robin, HAProxy's leastconn,
// the power of d choices (Envoy, gRPC, HAProxy random, nginx random two),
// Envoy's least-request, Finagle's and Linkerd's (peak) EWMA and Google's
// Prequal, against the read-only dispatch.View.
//
// Each constructor takes what its algorithm needs, already checked: the
// integer weights the real programs' configurations take (balancer.Weights),
// a random stream, the parameters. The registry in internal/policies reads
// an entry's options into these and lists the policies. A balancer counts
// its own outstanding requests and measures its own response times
// (dispatch.Feedback); it allocates nothing per decision and is not safe
// for concurrent use.
package lb
