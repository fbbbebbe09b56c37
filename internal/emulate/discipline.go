package emulate

import (
	"context"
	"fmt"
	"strings"

	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/runner"
	"github.com/offload-sim/offload/internal/testbed"
)

// simulatorOnly refuses a scenario the tier servers cannot honour
// faithfully. A server is c workers behind one queue, FIFO or by the
// priority a request carries, and a handler holds each task for a
// service it fixes when the task starts: PS (every task in service slowed
// as others arrive) and SRPT (the task in service preempted by a shorter
// one) would need a running service to be stretched or paused by the
// others, and preemptive priority the same; patience would need the
// client to leave a queue it cannot see. A buffer is honoured (the queue
// limit), and so are episodes, timeouts and retries.
func simulatorOnly(cfg *engine.Config) error {
	for i := range cfg.Tiers {
		t := &cfg.Tiers[i]
		if d := t.Discipline; d != engine.FCFS && d != engine.Priority {
			return fmt.Errorf("tier %s: discipline %s is simulator-only: a tier server fixes a task's service when it starts (fcfs and priority are emulated)", t.Name, d)
		}
		if t.Preemptive {
			return fmt.Errorf("tier %s: preemptive priority is simulator-only: a tier server does not pause a task in service", t.Name)
		}
	}
	if cfg.Patience.Mean() > 0 {
		return fmt.Errorf("patience is simulator-only: a client does not leave a tier server's queue")
	}
	for _, k := range cfg.Classes {
		if k.Patience.Mean() > 0 {
			return fmt.Errorf("class %s: patience is simulator-only: a client does not leave a tier server's queue", k.Name)
		}
	}
	return nil
}

// QueueLimit is a tier server's queue limit for the tier's buffer: the
// tasks it may hold beyond its servers (−1: none; 0: no buffer, the
// server's default).
func QueueLimit(t *engine.TierConfig) int {
	switch {
	case t.Buffer == 0:
		return 0
	case t.Buffer == t.Servers:
		return -1
	}
	return t.Buffer - t.Servers
}

// Runs is tier i's capacity in each run of cfg (testbed.ServerConfig.Runs),
// nil if it never changes: the simulator's episodes of the run's seed and
// replicate. serve-tier --scenario follows them too.
func Runs(cfg *engine.Config, i int) func(seed uint64, rep int) testbed.Capacity {
	if !cfg.Tiers[i].Capacity.Dynamic() {
		return nil
	}
	return func(seed uint64, rep int) testbed.Capacity { return experiment.EpisodeSchedule(cfg, seed, rep, i) }
}

// episodic reports whether any tier's capacity changes: the requests then
// carry their run, for the tiers to follow its episodes.
func episodic(cfg *engine.Config) bool {
	for i := range cfg.Tiers {
		if cfg.Tiers[i].Capacity.Dynamic() {
			return true
		}
	}
	return false
}

// classes are the scenario's task classes as the client treats them.
func classes(cfg *engine.Config) []testbed.Class {
	var out []testbed.Class
	for _, k := range cfg.Classes {
		out = append(out, testbed.Class{Priority: k.Priority, Deadline: k.Deadline})
	}
	return out
}

// clientConfig is what every emulated run of replicate rep shares: its
// tasks, the scenario's timeout and retries, its run on the requests,
// its classes, and the emulation's own settings.
func (e *emulation) clientConfig(ctx context.Context, rep int) testbed.Config {
	cfg := e.cfg
	return testbed.Config{Tiers: e.tiers,
		Workload:  testbed.FromSource(experiment.NewSource(cfg, e.plan.Scenario.Seed, rep, ctx.Done()), len(cfg.Classes) > 0),
		TimeScale: e.eo.TimeScale, Warmup: e.eo.Warmup, Duration: e.eo.Duration, Timeout: e.eo.Timeout, Large: cfg.Large,
		Spin: e.eo.Spin, MaxInFlight: e.inFlight,
		TaskTimeout: cfg.Timeout, Retries: cfg.Retries, CancelOnTimeout: cfg.CancelOnTimeout,
		Stamped: episodic(cfg), Seed: e.plan.Scenario.Seed, Rep: rep, Classes: classes(cfg)}
}

// TierServer is the tier server of cfg's tier name, for serve-tier
// --scenario: its name, index, servers, speed, queue limit (0: the
// server's default), queue by priority and episodes of each run, those
// of replicate 0 under seed for a task that names no run. A discipline
// the server cannot honour, or a name cfg lacks, is bad input.
func TierServer(cfg *engine.Config, seed uint64, name string) (testbed.ServerConfig, error) {
	var names []string
	for i := range cfg.Tiers {
		t := &cfg.Tiers[i]
		names = append(names, t.Name)
		if t.Name != name {
			continue
		}
		if t.Discipline != engine.FCFS && t.Discipline != engine.Priority || t.Preemptive {
			return testbed.ServerConfig{}, runner.BadInputf("--tier %s: discipline %s (preemptive %v) is simulator-only: a tier server fixes a task's service when it starts", name, t.Discipline, t.Preemptive)
		}
		sc := testbed.ServerConfig{Name: t.Name, Index: i, Servers: t.Servers, Speed: t.Speed, QueueLimit: QueueLimit(t),
			Priority: t.Discipline == engine.Priority, Runs: Runs(cfg, i)}
		if sc.Runs != nil {
			sc.Capacity = sc.Runs(seed, 0)
		}
		return sc, nil
	}
	return testbed.ServerConfig{}, runner.BadInputf("--tier %q: the scenario's tiers are %s", name, strings.Join(names, ", "))
}
