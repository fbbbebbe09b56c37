package results

// ShadowError is one shadow estimator's error over a run's measured tasks
// (the mape experiment: one mape.csv row).
type ShadowError struct {
	Estimator string
	MAPE      float64 // percent, on latency
	MAEWait   float64 // s, mean absolute error of the waiting time
}

// Window is one time window of a run's series (the burst experiment). Tasks
// are binned by arrival time, warmup included.
type Window struct {
	Start       float64   // s
	Tasks       int       // tasks that arrived in the window
	MeanLatency float64   // s, NaN if none
	P95Latency  float64   // s, NaN if none
	Share       []float64 // per tier: fraction of the window's tasks sent there
	Lambda      []float64 // per tier: λ̂ (tasks/s) at the window's first decision
	Beta        []float64 // per tier: β = min(1, q/c) then
	Rho         []float64 // per tier: ρ̂ = λ̂/(cμ) then
}
