package runner

import (
	"github.com/offload-sim/offload/experiments"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/scenario"
)

// load parses an embedded scenario as cmd does.
func load(embedded string, sets []string) (*scenario.Scenario, error) {
	data, err := experiments.Get(embedded)
	if err != nil {
		return nil, err
	}
	return scenario.Parse(embedded+".yaml", data, sets, experiment.Catalog())
}
