package results

// ShadowError is one shadow estimator's error over a run's measured tasks
// (the mape experiment: one mape.csv row).
type ShadowError struct {
	Estimator string
	MAPE      float64 // percent, on latency
	MAEWait   float64 // s, mean absolute error of the waiting time
	// MAPE split by whether the chosen tier had an idle server in the
	// router's view at the decision (percent; NaN where no task was so),
	// and the share of measured tasks that were: claim 3's evidence, since
	// the blend trusts the model alone exactly when q = 0.
	MAPEIdle, MAPEBusy float64
	IdleShare          float64
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

// ColMAEWait is the mean absolute error of a shadow estimator's predicted
// wait, s.
const ColMAEWait = "mae_wait_s"

// The columns of a shadow estimator's MAPE split by whether the chosen tier
// had an idle server at the decision, and the share of tasks where it had.
const (
	ColMAPEIdle  = "mape_idle"
	ColMAPEBusy  = "mape_busy"
	ColIdleShare = "idle_share"
)

// ShadowColumns are the columns of the mape experiment's rows per estimator
// (mape_summary.csv aggregates them like runs).
func ShadowColumns() []Column {
	return []Column{
		{Name: ColMAPE, Unit: "%", Doc: "mean absolute percentage error of the predicted latency"},
		{Name: ColMAEWait, Unit: "s", Doc: "mean absolute error of the predicted wait"},
		{Name: ColMAPEIdle, Unit: "%", Doc: "MAPE over the tasks whose chosen tier had an idle server in the view"},
		{Name: ColMAPEBusy, Unit: "%", Doc: "MAPE over the tasks whose chosen tier had every server busy"},
		{Name: ColIdleShare, Doc: "share of measured tasks whose chosen tier had an idle server"},
	}
}

// ShadowRuns turns each run's shadow estimators into rows of their own: the
// run's key with the estimator in Policy, under ShadowColumns.
func ShadowRuns(runs []Run, shadows [][]ShadowError) []Run {
	cols := ShadowColumns()
	var out []Run
	for i, r := range runs {
		for _, sh := range shadows[i] {
			out = append(out, Run{Experiment: r.Experiment, Param: r.Param, Value: r.Value, Policy: sh.Estimator, Seed: r.Seed,
				Cols: cols, Values: []float64{sh.MAPE, sh.MAEWait, sh.MAPEIdle, sh.MAPEBusy, sh.IdleShare}})
		}
	}
	return out
}
