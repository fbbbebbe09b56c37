// Package engine is the discrete-event simulator of docs/design.md §1: Poisson
// arrivals with a piecewise-constant rate, one dispatch decision per task,
// lognormal communication delays, and FCFS multi-server tiers.
//
// The engine is a library: it prints nothing, touches no file, reads no clock
// and keeps no global state. A run takes a Config, a dispatch.Policy and the
// workload's random streams, and returns a Result.
//
// # How a task flows
//
// A task arrives at the device, the policy sees a dispatch.View and picks a
// tier, the task spends its pre-drawn delay for that tier in transit, then
// joins the tier's FCFS queue. Because the discipline is FCFS and a task's
// size is drawn at arrival, its start and completion times are known the
// moment it reaches the tier: the tier keeps each server's next free time
// (the Kiefer–Wolfowitz workload vector) and the task takes the earliest one.
// Departures only maintain the queue and busy counts a policy observes: they
// are not events. A tier of few servers reads its count from the workload
// vector and the start times of its waiting tasks when it is read; a larger
// one, and every tier under the delayed model (whose history needs each
// change at its instant), keeps its tasks' finish times and takes off the
// ones due then (present, finishes, drain).
//
// # Events and time
//
// Events are ordered by (time, sequence number), so ties resolve in the order
// they were scheduled and simulated time never goes backwards. At equal times
// a departure comes first, then events (reaching a tier), then the arrival
// being decided.
package engine
