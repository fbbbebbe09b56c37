package gymenv

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/scenario"
)

// small is a quick three-tier scenario with random delays and a warmup,
// every policy the faithfulness test drives (the env ignores the list
// otherwise: it is the baselines of its hello).
const small = `name: small
seed: 7
seeds: 3
tasks: 1500
warmup: 150
arrivals: {rate: 70}
workload:
  size: {dist: pareto, alpha: 2.5, mean: 1.0}
tiers:
  - {name: local, kind: local, servers: 1, speed: 10}
  - {name: edge, kind: edge, servers: 4, speed: 25, delay: {mean: 0.005, cv: 0.5}}
  - {name: cloud, kind: cloud, servers: 16, speed: 50, delay: {mean: 0.06, cv: 0.5}}
policies: [hybrid, jsq, jsq-s, random, oracle, lwl, power-of-d, sita-e, jiq, static-opt]
`

func parse(t testing.TB, body string, sets ...string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Parse("small.yaml", []byte(body), sets, experiment.Catalog())
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func setup(t testing.TB, body string, sets ...string) *Setup {
	t.Helper()
	s, err := New(parse(t, body, sets...))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// episode runs one episode of e from a Reset, choosing each action with
// choose, and returns its rewards and its completed tasks by id.
func episode(t *testing.T, e *Env, choose func(e *Env) int) (rewards []float64, done map[int64]Record) {
	t.Helper()
	if err := e.Reset(); err != nil {
		t.Fatal(err)
	}
	done = map[int64]Record{}
	for !e.Over() {
		r, err := e.Step(choose(e))
		if err != nil {
			t.Fatal(err)
		}
		rewards = append(rewards, r)
		for _, d := range e.Done() {
			if _, dup := done[d.Task]; dup {
				t.Fatalf("task %d completed twice", d.Task)
			}
			done[d.Task] = d
		}
	}
	return rewards, done
}

// The return identity: an episode's return is minus the total sojourn
// time of its tasks, and every decided task completes once. The rewards
// are sums of n·Δt over the pieces between events; each Δt carries one
// rounding of the clock (≤ ulp(T) at the episode's end T), so the two sums
// differ by at most (tasks + steps)·max n·ulp(T) or so: a relative 1e-9
// is far above that for these runs and far below any missed piece.
func TestReturnIsMinusTotalSojourn(t *testing.T) {
	for _, mode := range [][]string{nil, {"tasks=0", "warmup=0", "duration=20", "warmup_time=2"}} {
		s := setup(t, small, mode...)
		e := s.NewEnv(0, 1)
		i := 0
		rewards, done := episode(t, e, func(*Env) int { i++; return i % 3 })
		ret, sum := 0.0, 0.0
		for _, r := range rewards {
			if r > 0 {
				t.Fatalf("%v: a positive reward %v", mode, r)
			}
			ret += r
		}
		for _, d := range done {
			sum += d.Latency
		}
		if len(done) != len(rewards) {
			t.Errorf("%v: %d steps, %d tasks completed: want one each", mode, len(rewards), len(done))
		}
		if s.cfg.Tasks > 0 && len(rewards) != 1650 {
			t.Errorf("%v: %d steps, want tasks + warmup = 1650", mode, len(rewards))
		}
		if math.Abs(ret+sum) > 1e-9*sum {
			t.Errorf("%v: return %.17g, total sojourn %.17g: differ by %.3g", mode, ret, sum, ret+sum)
		}
	}
}

// The same seed gives the same observations and rewards, whether the
// episode follows a fresh environment or one abandoned in its middle.
func TestDeterministic(t *testing.T) {
	s := setup(t, small, "tasks=300", "warmup=0")
	trace := func(e *Env) []float64 {
		var out []float64
		obs := make([]float64, len(s.fields))
		if err := e.Reset(); err != nil {
			t.Fatal(err)
		}
		for !e.Over() {
			e.Observe(obs)
			out = append(out, obs...)
			r, err := e.Step(int(obs[fQueued]+obs[perTier+fQueued]) % 3)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, r)
		}
		return out
	}
	a := s.NewEnv(0, 1)
	a.Seed(11, 2, 1)
	b := s.NewEnv(0, 1)
	if err := b.Reset(); err != nil { // another episode, abandoned after a few steps
		t.Fatal(err)
	}
	for range 40 {
		if _, err := b.Step(2); err != nil {
			t.Fatal(err)
		}
	}
	b.Seed(11, 2, 1)
	x, y := trace(a), trace(b)
	if len(x) != len(y) {
		t.Fatalf("lengths %d and %d", len(x), len(y))
	}
	for i := range x {
		if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
			t.Fatalf("value %d: %v and %v", i, x[i], y[i])
		}
	}
	c := s.NewEnv(0, 1)
	c.Seed(11, 3, 1)
	if z := trace(c); len(z) == len(x) && z[len(z)-1] == x[len(x)-1] {
		t.Errorf("replicate 3 repeats replicate 2")
	}
}

// Faithful: an environment whose actions are a built-in policy's decisions
// on the environment's own views, with the policy built as `offload run`
// builds it for that replicate (its own stream, told of its dispatches),
// gives every task the latency `offload run`'s trace gives it — ties,
// coin flips and clairvoyance included — under the fresh view and under a
// board of noisy postings at exponential epochs (the board's stream) and
// under noisy views of random age (the device's observation stream).
func TestFaithfulToRun(t *testing.T) {
	for _, obs := range []string{"", "observation: {model: individual, period: 0.05, noise: 0.3}\n",
		"observation: {model: delayed, delay: {mean: 0.02, cv: 0.5}, noise: 0.3}\n"} {
		sc := parse(t, small+obs)
		plan, err := experiment.NewPlan("small", sc)
		if err != nil {
			t.Fatal(err)
		}
		traces := map[experiment.Job]map[int]float64{}
		_, err = plan.Execute(context.Background(), experiment.Options{Workers: 1, Trace: func(j experiment.Job) (func(*engine.TaskRecord), func(error) error, error) {
			m := map[int]float64{}
			traces[j] = m
			return func(r *engine.TaskRecord) { m[r.ID] = r.Latency }, func(error) error { return nil }, nil
		}})
		if err != nil {
			t.Fatal(err)
		}
		s, err := New(sc)
		if err != nil {
			t.Fatal(err)
		}
		for _, label := range plan.Labels() {
			for rep := range 2 {
				j := experiment.Job{Policy: label, Seed: rep}
				pol, err := plan.NewPolicy(j)
				if err != nil {
					t.Fatal(err)
				}
				obsv, _ := pol.(dispatch.Observer)
				e := s.NewEnv(rep, 1)
				_, done := episode(t, e, func(e *Env) int {
					d := pol.Decide(e.view)
					if obsv != nil {
						obsv.Dispatched(e.view.Now, d.Tier)
					}
					return d.Tier
				})
				want := traces[j]
				measured := 0
				for id, lat := range want {
					got, ok := done[int64(id)]
					if !ok || math.Float64bits(got.Latency) != math.Float64bits(lat) {
						t.Fatalf("%q%s rep %d, task %d: env latency %v (found %v), offload run %v", label, obs, rep, id, got.Latency, ok, lat)
					}
					if got.Measured != (id >= 150) {
						t.Errorf("%s task %d: measured %v", label, id, got.Measured)
					}
					if got.Measured {
						measured++
					}
				}
				if measured != 1500 || len(done) != 1650 {
					t.Errorf("%s rep %d: %d measured tasks compared of %d completed: want 1500 of 1650", label, rep, measured, len(done))
				}
			}
		}
	}
}

// The observation is the view: per tier q, b, in transit and age, then the
// time, the data where drawn, and the size, marked clairvoyant.
func TestObservationLayout(t *testing.T) {
	s := setup(t, small)
	var names []string
	for _, f := range s.Fields() {
		if f.Clairvoyant != (f.Name == "size") {
			t.Errorf("field %s: clairvoyant %v", f.Name, f.Clairvoyant)
		}
		names = append(names, f.Name)
	}
	want := "local.queued local.busy local.in_transit local.age edge.queued edge.busy edge.in_transit edge.age cloud.queued cloud.busy cloud.in_transit cloud.age time size"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("fields %s\nwant %s", got, want)
	}
	withData := setup(t, strings.Replace(small, "workload:\n", "workload:\n  data: {dist: lognormal, mean: 8.0e+6, cv: 1}\n", 1))
	if f := withData.Fields(); f[len(f)-2].Name != "data" {
		t.Errorf("with data: fields %v, want data before size", f)
	}
	e := s.NewEnv(0, 1)
	if err := e.Reset(); err != nil {
		t.Fatal(err)
	}
	sent := 0
	obs := make([]float64, len(s.fields))
	for range 300 {
		e.Observe(obs)
		v := e.view
		for i, st := range v.States {
			if obs[i*perTier+fQueued] != float64(st.Queued) || obs[i*perTier+fBusy] != float64(st.Busy) || obs[i*perTier+fInTransit] != float64(st.InTransit) {
				t.Fatalf("tier %d: obs %v, view %+v", i, obs[i*perTier:(i+1)*perTier], st)
			}
		}
		if obs[12] != v.Now || obs[13] != v.Oracle.TaskSize() || !(obs[13] > 0) {
			t.Fatalf("time, size %v, %v: want %v, %v", obs[12], obs[13], v.Now, v.Oracle.TaskSize())
		}
		sent += int(obs[perTier+fInTransit] + obs[2*perTier+fInTransit])
		if _, err := e.Step(1 + e.steps%2); err != nil {
			t.Fatal(err)
		}
	}
	if sent == 0 {
		t.Errorf("no task ever seen in transit to the delayed tiers")
	}
}

// The scenarios the environment cannot run are refused, naming the field.
func TestRefused(t *testing.T) {
	for _, c := range []struct {
		sets []string
		want string
	}{
		{[]string{"devices=2"}, "devices: 2"},
		{[]string{"sweep={param: arrivals.rate, values: [40, 60]}"}, "sweep: 2 cells"},
	} {
		_, err := New(parse(t, small, c.sets...))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.sets, err, c.want)
		}
	}
	s := setup(t, small)
	if _, err := s.NewServer(0); err == nil {
		t.Errorf("0 environments accepted")
	}
	e := s.NewEnv(0, 1)
	if _, err := e.Step(0); err == nil {
		t.Errorf("a step before reset accepted")
	}
	if err := e.Reset(); err != nil {
		t.Fatal(err)
	}
	for _, a := range []int{-1, 3} {
		if _, err := e.Step(a); err == nil || !strings.Contains(err.Error(), "allowed 0..2") {
			t.Errorf("action %d: error %v", a, err)
		}
	}
	e.halt()
}

// An episode whose duration holds no arrival says so at reset.
func TestNoTask(t *testing.T) {
	s := setup(t, small, "tasks=0", "warmup=0", "duration=0.000001", "arrivals.rate=0.001")
	err := s.NewEnv(0, 1).Reset()
	if !errors.Is(err, errNoTask) {
		t.Errorf("error %v, want %v", err, errNoTask)
	}
}
