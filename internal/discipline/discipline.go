// Package discipline is the order a tier serves its tasks in, and the
// state of a tier whose departures are events: processor sharing, SRPT
// and priority (docs/model.md), whose tasks' finishes depend on the tasks
// that reach it later; its speed changes, failures, deadlines and
// patiences are events of the same tier. An FCFS tier needs none of it: a
// task's start and finish are known at its reach (package fcfs). It is a leaf: no I/O, no
// global state, nothing allocated per task once its slices have grown.
package discipline

import "fmt"

// Discipline is the order a tier serves its tasks in.
type Discipline uint8

const (
	// FCFS serves tasks in the order they reach the tier: a task's start
	// and finish are known when it reaches it (the workload vector).
	FCFS Discipline = iota
	// PS shares the tier's c servers among the n tasks present: each runs
	// at min(1, c/n) times a server's speed.
	PS
	// SRPT serves the (at most c) tasks with the least remaining work,
	// preempting a task in service when one with less arrives.
	SRPT
	// Priority serves the tasks by their class's priority, the lower
	// first, FCFS within a class; without preemption unless the tier is
	// preemptive (preempt-resume).
	Priority
)

// String is the discipline's scenario spelling.
func (d Discipline) String() string {
	switch d {
	case FCFS:
		return "fcfs"
	case PS:
		return "ps"
	case SRPT:
		return "srpt"
	case Priority:
		return "priority"
	}
	return fmt.Sprintf("discipline(%d)", uint8(d))
}

// Check returns the problems of a tier of discipline d with this many
// servers: a discipline it does not know, preemption (preemptive) but
// under priority, and a buffer (0: no limit) below the servers.
func Check(d Discipline, preemptive bool, buffer, servers int) []error {
	var errs []error
	switch d {
	case FCFS, PS, SRPT, Priority:
	default:
		errs = append(errs, fmt.Errorf("%v: need fcfs, ps, srpt or priority", d))
	}
	if preemptive && d != Priority {
		errs = append(errs, fmt.Errorf("preemptive with discipline %s: only priority takes it", d))
	}
	if buffer != 0 && buffer < servers {
		errs = append(errs, fmt.Errorf("buffer %d: need 0 (no limit) or ≥ servers (%d)", buffer, servers))
	}
	return errs
}

// Parse reads a discipline's scenario spelling; "" is FCFS.
func Parse(s string) (Discipline, error) {
	for _, d := range []Discipline{FCFS, PS, SRPT, Priority} {
		if s == d.String() {
			return d, nil
		}
	}
	if s == "" {
		return FCFS, nil
	}
	return FCFS, fmt.Errorf("discipline %q: need fcfs, ps, srpt or priority", s)
}
