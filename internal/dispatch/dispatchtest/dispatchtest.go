// Package dispatchtest holds fixtures for tests of the packages that speak
// dispatch: estimators, policies and the testbed.
package dispatchtest

import "github.com/offload-sim/offload/internal/dispatch"

// ThreeTiers is docs/design.md §5's continuum as a dispatcher sees it — local 1×10/s,
// edge 4×25/s at 5 ms, cloud c×50/s at 60 ms, Pareto α = 2.5 sizes of mean 1
// (C_s² = 0.8) — with cloudServers cloud servers (16 in the design, 64 in the
// decision benchmarks).
func ThreeTiers(cloudServers int) []dispatch.Tier {
	return []dispatch.Tier{
		{Name: "local", Kind: dispatch.Local, Servers: 1, Speed: 10, Mu: 10, Cs2: 0.8},
		{Name: "edge", Kind: dispatch.Edge, Servers: 4, Speed: 25, Mu: 25, MeanDelay: 0.005, Cs2: 0.8},
		{Name: "cloud", Kind: dispatch.Cloud, Servers: cloudServers, Speed: 50, Mu: 50, MeanDelay: 0.06, Cs2: 0.8},
	}
}
