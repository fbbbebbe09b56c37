package engine_test

import (
	"reflect"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/workload"
)

// ledger wraps a feedback policy, keeping its capabilities, and keeps the
// attempts outstanding from what the engine tells it: each decision adds
// its task at the tier chosen, each end removes it, which must be the
// tier the ledger holds it at (Tier, or From for a move).
type ledger struct {
	p        dispatch.Policy
	caps     dispatch.Capabilities
	at       map[int]int // task → tier outstanding
	outcomes [dispatch.Moved + 1]int
	wrong    int // ends told at a tier the task was not outstanding at
	errs     []string
}

func (l *ledger) Decide(v *dispatch.View) dispatch.Decision {
	d := l.p.Decide(v)
	if _, ok := l.at[v.Task]; ok && len(l.errs) < 5 {
		l.errs = append(l.errs, "a task decided again before its attempt's end was told")
	}
	l.at[v.Task] = d.Tier
	return d
}

func (l *ledger) Done(c *dispatch.Completion) {
	l.outcomes[c.Outcome]++
	from := c.Tier
	if c.Outcome == dispatch.Moved {
		from = c.From
	}
	if tier, ok := l.at[c.Task]; !ok || tier != from {
		l.wrong++
	}
	if c.Outcome == dispatch.Moved {
		l.at[c.Task] = c.Tier
	} else {
		delete(l.at, c.Task)
	}
	l.caps.Feedback.Done(c)
}

func (l *ledger) Capabilities() dispatch.Capabilities {
	c := l.caps
	c.Feedback = l
	return c
}

// counts sums, per tier, every count of outstanding requests the policy
// holds (its fields of the policies' type outstanding, wherever they are),
// and counts the tasks it holds an entry for (prequal's RIF at send).
func counts(p any, n int) (per []int, entries int, found bool) {
	per = make([]int, n)
	var walk func(v reflect.Value, depth int)
	walk = func(v reflect.Value, depth int) {
		if depth > 4 {
			return
		}
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem(), depth+1)
			}
		case reflect.Struct:
			if v.Type().Name() == "taskRIFs" {
				found = true
				task := v.FieldByName("task")
				for i := range task.Len() {
					if task.Index(i).Int() >= 0 {
						entries++
					}
				}
				return
			}
			for i := range v.NumField() {
				walk(v.Field(i), depth+1)
			}
		case reflect.Slice:
			if v.Type().Name() == "outstanding" && v.Len() == n {
				found = true
				for i := range n {
					per[i] += int(v.Index(i).Int())
				}
			}
		}
	}
	walk(reflect.ValueOf(p), 0)
	return per, entries, found
}

// TestFeedbackEndsEveryAttempt: for every registered policy that learns
// from outcomes, in a run whose tiers fail in turn and whose tasks time
// out and are retried, the policy is told of every attempt's end (its
// completion, the error of a down tier, its timeout; a drop's refusal; an
// abandonment's timeout) at the tier it was
// outstanding at, the engine's fallback included (a move to the tier
// used); so the policy's own counts of outstanding requests are, at the
// end, exactly the attempts still in flight, a handful of the last tasks.
func TestFeedbackEndsEveryAttempt(t *testing.T) {
	const tasks = 20000
	// The runs: tiers that fail in turn, with timeouts and retries; and
	// full buffers without retries, whose drops are the attempts' ends.
	runs := []struct {
		name  string
		setup func(cfg *engine.Config)
		check func(o engine.Outcomes) bool
		ends  []dispatch.Outcome
	}{
		{"failures", func(cfg *engine.Config) {
			cfg.Tiers[1].Capacity.Episodes = []engine.Episode{{Start: 10, End: 20, Down: true}}
			cfg.Tiers[2].Capacity.Episodes = []engine.Episode{{Start: 30, End: 40, Down: true}}
			cfg.Tiers[0].Capacity.Episodes = []engine.Episode{{Start: 50, End: 55, Down: true}}
			cfg.Timeout, cfg.Retries = 0.4, 2
		}, func(o engine.Outcomes) bool { return o.Lost > 0 && o.TimedOut > 0 && o.Retried > 0 },
			[]dispatch.Outcome{dispatch.Completed, dispatch.Failed, dispatch.TimedOut}},
		{"drops", func(cfg *engine.Config) {
			for i := range cfg.Tiers {
				cfg.Tiers[i].Buffer = cfg.Tiers[i].Servers
			}
		}, func(o engine.Outcomes) bool { return o.Dropped > 0 },
			[]dispatch.Outcome{dispatch.Completed, dispatch.Failed}},
		// Patience with a timeout, at FCFS and at SRPT tiers: an abandoned
		// attempt's end is learnt at its deadline.
		{"abandons", func(cfg *engine.Config) {
			cfg.Patience, cfg.Timeout = mustExp(0.02), 0.4
		}, func(o engine.Outcomes) bool { return o.Abandoned > 0 },
			[]dispatch.Outcome{dispatch.Completed, dispatch.TimedOut}},
		{"abandons-srpt", func(cfg *engine.Config) {
			for i := range cfg.Tiers {
				cfg.Tiers[i].Discipline = engine.SRPT
			}
			cfg.Patience, cfg.Timeout = mustExp(0.02), 0.4
		}, func(o engine.Outcomes) bool { return o.Abandoned > 0 },
			[]dispatch.Outcome{dispatch.Completed, dispatch.TimedOut}},
	}
	tested := 0
	for _, name := range policies.Names() {
		spec, _ := policies.Lookup(name)
		if spec.Program {
			continue
		}
		if caps := dispatch.CapabilitiesOf(engine.RegistryPolicy(t, spec.Name, engine.ThreeTier(t, 300, tasks), 1)); caps.Feedback == nil {
			continue
		}
		tested++
		for _, r := range runs {
			t.Run(spec.Name+"/"+r.name, func(t *testing.T) {
				cfg := engine.ThreeTier(t, 300, tasks)
				r.setup(cfg)
				p := engine.RegistryPolicy(t, spec.Name, cfg, 1)
				endsEveryAttempt(t, cfg, p, r.check, r.ends)
			})
		}
	}
	if tested < 4 {
		t.Fatalf("%d feedback policies registered, want least-conn, p2c, ewma, prequal at least", tested)
	}
}

// mustExp is the exponential law of this mean.
func mustExp(mean float64) workload.Dist {
	d, err := workload.New("exponential", mean, 0, 0)
	if err != nil {
		panic(err)
	}
	return d
}

// endsEveryAttempt runs p through its ledger and checks that every
// attempt's end was told at the tier it was outstanding at, and that the
// policy's own counts are the attempts still in flight.
func endsEveryAttempt(t *testing.T, cfg *engine.Config, p dispatch.Policy, ran func(engine.Outcomes) bool, ends []dispatch.Outcome) {
	t.Helper()
	caps := dispatch.CapabilitiesOf(p)
	l := &ledger{p: p, caps: caps, at: map[int]int{}}
	res, err := engine.Run(cfg, l, workload.NewStreams(3, 0))
	if err != nil {
		t.Fatal(err)
	}
	if !ran(res.Out) {
		t.Fatalf("the run has nothing to tell: %+v", res.Out)
	}
	for _, o := range ends {
		if l.outcomes[o] == 0 {
			t.Errorf("no end of outcome %v told", o)
		}
	}
	if l.wrong > 0 || len(l.errs) > 0 {
		t.Errorf("%d ends told at a tier the attempt was not outstanding at; %v", l.wrong, l.errs)
	}
	inFlight, stale := make([]int, len(cfg.Tiers)), 0
	for task, tier := range l.at {
		inFlight[tier]++
		if task < cfg.Tasks-200 {
			stale++
		}
	}
	if stale > 0 {
		t.Errorf("%d attempts of tasks decided long before the end still outstanding", stale)
	}
	per, entries, found := counts(p, len(cfg.Tiers))
	if !found {
		t.Fatal("the policy holds no count this test can read")
	}
	if entries > 0 && entries != len(l.at) {
		t.Errorf("the policy holds %d tasks' entries, %d attempts in flight", entries, len(l.at))
	}
	if entries == 0 && !reflect.DeepEqual(per, inFlight) {
		t.Errorf("the policy's outstanding counts %v, in flight %v", per, inFlight)
	}
	t.Logf("%v told; %d moved; in flight at the end %v", l.outcomes, l.outcomes[dispatch.Moved], inFlight)
}
