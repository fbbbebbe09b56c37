// Package testbed is the HTTP emulation of docs/design.md §7: tier servers that
// really queue and really wait, and an open-loop client that dispatches real
// asynchronous requests with the same dispatch.Policy code as the simulator.
//
// # Tier server
//
// Server is an http.Handler for one tier: c service slots fed by one queue
// of bounded length, FIFO or by the priority each request carries. POST
// /tasks with {"id": 1, "size": 2.5} occupies a slot for size/speed model
// seconds (times the time-scale, in wall-clock time) and answers with the
// task's timings; a full queue answers 503 with a reason. A request that
// carries its run (its model instant, seed and replicate) follows that
// run's episodes: refused while the tier is down, lost when it fails,
// served slower through a slow-down. GET /state reports the queue. The clock and the executor (what
// "running a task" means) are injected, so tests drive the handler without a
// network and without waiting.
//
// # Client
//
// Run drives an open-loop Poisson client: arrival times come from an injected
// generator (cmd builds it from the simulator's exact NHPP sampler and the
// replicate's streams, so the emulated workload is the simulated one), the
// policy decides at each arrival, and the request leaves after the tier's
// delay. Open loop means arrivals never wait for answers: a late loop catches
// up at once and records its lag, and latency is measured from the scheduled
// arrival, so the client's own slowness is charged to latency, not hidden.
// The scenario's timeout and retries are the client's, as the simulator's
// dispatcher has them: an attempt that fails (a tier's 503, a timeout) is
// learned when the model says it is, told to a feedback policy, and sent
// again with the failed tier left out (attempt.go).
//
// # The dispatcher's view
//
// A policy sees, per tier, the dispatcher's own accounting: n = tasks whose
// request has been sent (the delay is over) and not yet answered, giving
// q = max(0, n − c) and b = min(n, c); tasks still inside their delay are
// InTransit. The tier's /state is not polled: on loopback the accounting is
// exact to within the one-way network time (tens of µs), while a poll would
// add a round trip of staleness and load the server it measures. Polling
// would only help when other clients share a tier, which the emulation does
// not do.
//
// # Limits and failing tiers
//
// Config.MaxInFlight bounds the requests in flight, from the process's
// descriptor limit (InFlightLimit, RaiseFDLimit), and NewLimitedHTTPTransport
// sizes its connection pool to it: a task that would exceed it is not sent
// and counts as failed ("concurrency limit"), so that an overloaded client
// fails visibly and accountably instead of at random with "too many open
// files". Config.Health checks tiers the client does not run (GET /state
// every 500 ms): a tier that fails a check, or a request in a way that means
// it is gone, is down, and the view shows it saturated until a check
// succeeds, so that its instant failures do not make it look like the
// emptiest tier. Result.Failures says why requests failed.
//
// Oracle is supported from the same bookkeeping: the client knows every size
// it sent, so it replays the tier's FCFS queue on nominal service times
// (size/speed) exactly as the simulator does. Its "clairvoyance" is therefore
// about the model, not about the real server's timer jitter.
//
// This package never imports the engine: the simulator and the testbed share
// only the dispatch vocabulary and the policies. It prints nothing and reads
// no file.
package testbed
