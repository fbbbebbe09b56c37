// Package pq holds the simulator's priority queues, each a binary min-heap
// written out for one use rather than built on container/heap, whose
// interface boxing would cost an allocation-free hot path dearly and whose
// order is not stable for equal keys. None allocates once its slice has
// grown to its high-water mark.
//
//   - Events: the scheduled events, by (time, sequence number). The sequence
//     number is the push order, so events at equal times come out in the
//     order they were pushed. Its user's invariant, which Events does not
//     check: no event is pushed earlier than the last one popped, so that
//     simulated time never goes backwards.
//   - Keys: the integers 0 to n−1, each with a key (a time; +Inf: none),
//     by (key, integer), with each one's place in the heap, so that a key
//     that moves in either direction is fixed in O(log n). Every integer is
//     always present.
//   - Times: (time, id) entries by time alone, ties in no promised order
//     (deterministic all the same). Once pushed, only the top is read or
//     changed: its time moved later, or the top taken off (Down).
package pq
