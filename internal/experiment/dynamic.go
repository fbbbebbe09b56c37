package experiment

import (
	"fmt"

	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/scenario"
	"github.com/offload-sim/offload/internal/workload"
)

// EpisodeStream is the stream id of a replicate's slow-downs and failures
// (each physical tier and kind derives its own from it): above every
// device's workload streams, so that adding it shifts none of them.
const EpisodeStream = 0xF000

// addDynamics maps the tiers' episodes and laws and the dispatcher's
// timeout and retries onto cfg.
func addDynamics(cfg *engine.Config, sc *scenario.Scenario) error {
	cfg.Timeout, cfg.Retries, cfg.CancelOnTimeout = sc.Timeout, sc.Retries, sc.CancelOnTimeout
	for i, t := range sc.Tiers {
		cp := &cfg.Tiers[i].Capacity
		for _, e := range t.Episodes {
			cp.Episodes = append(cp.Episodes, engine.Episode{Start: e.Start, End: e.End, Speed: e.Speed, Down: e.Down})
		}
		var err error
		if cp.Slowdowns, err = recurring(t.Slowdowns); err != nil {
			return fmt.Errorf("tier %s slowdowns: %w", t.Name, err)
		}
		if cp.Failures, err = recurring(t.Failures); err != nil {
			return fmt.Errorf("tier %s failures: %w", t.Name, err)
		}
	}
	return nil
}

func recurring(r *scenario.Recurring) (*engine.Recurring, error) {
	if r == nil {
		return nil, nil
	}
	gap, err := workload.New(r.Gap.Dist, r.Gap.Mean, r.Gap.Alpha, r.Gap.CV)
	if err != nil {
		return nil, fmt.Errorf("gap: %w", err)
	}
	length, err := workload.New(r.Length.Dist, r.Length.Mean, r.Length.Alpha, r.Length.CV)
	if err != nil {
		return nil, fmt.Errorf("length: %w", err)
	}
	return &engine.Recurring{Gap: gap, Length: length, Speed: r.Speed}, nil
}

// episodeSeed seeds replicate rep's episodes: the same for every policy.
func episodeSeed(seed uint64, rep int) [2]uint64 {
	return [2]uint64{seed, workload.StreamID(rep, EpisodeStream)}
}

// measuredOutcomes copies the run's outcome account into m.
func measuredOutcomes(m *results.Measured, res *engine.Result, l results.Layout) {
	if !l.Dynamic && !l.Buffer && !l.Patience {
		return
	}
	o := res.Out
	m.Outcomes = &results.Outcomes{Arrived: o.Arrived, Lost: o.Lost, TimedOut: o.TimedOut, Retried: o.Retried,
		Dropped: o.Dropped, Abandoned: o.Abandoned}
}

// EpisodeSchedule is scenario tier i's capacity in replicate rep of a
// run of cfg under seed: the episodes the simulator's run of that
// replicate has, for a tier server of the testbed to follow. nil when
// the tier's capacity never changes.
func EpisodeSchedule(cfg *engine.Config, seed uint64, rep, i int) *engine.Schedule {
	c := &cfg.Tiers[i].Capacity
	if !c.Dynamic() {
		return nil
	}
	return engine.NewSchedule(c, episodeSeed(seed, rep), i)
}

// NewSource is replicate rep's source of tasks under seed, the one the
// simulator's single device draws from, for the testbed's client to send
// the same tasks.
func NewSource(cfg *engine.Config, seed uint64, rep int, stop <-chan struct{}) *workload.Source {
	return workload.NewSource(cfg.Workload(), workload.NewStreams(seed, rep), stop)
}
