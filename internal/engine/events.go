package engine

import "github.com/offload-sim/offload/internal/pq"

// eventKind tells what happens at an event (pq.Event's Kind).
type eventKind = uint8

const (
	evReach   eventKind = iota // a task ends its delay and joins its tier
	evRefresh                  // the board posts a tier (tier ≥ 0) or every tier (tier −1)
	// Departures are not events: each tier keeps its finish times (finishes).
)

// event is one scheduled happening, in the run's heap of them (sim.events,
// by time then push order). Slot indexes the in-transit task table for
// evReach, evRetry and evExpire, the pending completions for evDone, and carries the
// tier's generation for evDepart; Tier is the tier concerned.
type event = pq.Event
