package engine

import "github.com/offload-sim/offload/internal/observe"

// What a dispatcher sees of the tiers is internal/observe's, named here as
// well, so that a run is configured through this package alone.
type (
	// ObservationModel says how a dispatcher's view of the tiers relates
	// to their true state (docs/design.md §1.9).
	ObservationModel = observe.Model
	// Observation configures what a dispatcher sees.
	Observation = observe.Config
)

// The observation models (observe.Model).
const (
	Fresh      = observe.Fresh
	Periodic   = observe.Periodic
	Individual = observe.Individual
	Delayed    = observe.Delayed
)

// ParseObservationModel reads a model as a scenario spells it.
func ParseObservationModel(s string) (ObservationModel, error) { return observe.Parse(s) }

// board is a tier's last posted state, for Periodic and Individual.
type boardEntry struct {
	n  int     // tasks present when posted
	at float64 // when posted, s
}
