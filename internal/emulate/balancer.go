package emulate

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"

	"github.com/offload-sim/offload/internal/balancer"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/runner"
	"github.com/offload-sim/offload/internal/testbed"
)

// Balancer is a real load balancer to run in front of the tiers
// (--balancer): each selected policy that has a counterpart in the program
// (balancer.Algorithms) also runs on it, beside offload's own.
type Balancer struct {
	Program balancer.Program
	Binary  string // the executable's path (cmd looks it up)
	// Missing, if set, is why the executable was not found: an error of
	// the machine (exit 1), reported once the input is known to be good,
	// so that bad input is exit 2 on any machine.
	Missing error
}

// realJob is one replicate of a policy's counterpart on a real balancer.
type realJob struct {
	job   experiment.Job // the offload policy's job: its cell, entry and replicate
	alg   balancer.Algorithm
	label string // the runs' label: the algorithm's, with the entry's if it is renamed
}

// realJobs lists the real balancers' runs: for each program in the order
// given, each entry of the plan whose policy has a counterpart there, each
// replicate. An entry renamed with as: keeps its name in the label
// ("haproxy:leastconn:lc-capacity"), so that two entries of one policy stay
// apart.
func realJobs(plan *experiment.Plan, bs []Balancer) []realJob {
	var out []realJob
	for _, b := range bs {
		for _, a := range balancer.Algorithms() {
			if a.Program != b.Program {
				continue
			}
			for _, e := range plan.Policies {
				if e.Name != a.Policy {
					continue
				}
				label := a.Label
				if e.Label != e.Name {
					label += ":" + e.Label
				}
				for c := range plan.Cells {
					for r := range plan.Scenario.Seeds {
						out = append(out, realJob{job: experiment.Job{Cell: c, Policy: e.Label, Seed: r}, alg: a, label: label})
					}
				}
			}
		}
	}
	return out
}

// binary is the executable given for a program.
func (e *emulation) binary(p balancer.Program) string {
	for _, b := range e.eo.Balancers {
		if b.Program == p {
			return b.Binary
		}
	}
	return ""
}

// runReal emulates one replicate with a real balancer in front of fresh
// local tiers: the balancer chooses each task's tier, the tier applies the
// task's delay, the client only sends and counts. The balancer's run folder
// is a temporary one, removed afterwards; a failure to start, or the
// program's death during the run, is an error quoting its logs.
func (e *emulation) runReal(ctx context.Context, rj realJob) (results.EmulatedRun, error) {
	entry, err := e.entry(rj.job.Policy)
	if err != nil {
		return results.EmulatedRun{}, err
	}
	weights, err := policies.EntryWeights(entry, e.tiers)
	if err != nil {
		return results.EmulatedRun{}, runner.BadInput(err)
	}
	if rj.alg.Policy == "round-robin" { // offload's round-robin has no weights
		for i := range weights {
			weights[i] = 1
		}
	}
	urls, stop, err := e.startTiers()
	if err != nil {
		return results.EmulatedRun{}, err
	}
	defer stop()
	backends := make([]balancer.Backend, len(urls))
	for i, u := range urls {
		p, err := url.Parse(u)
		if err != nil {
			return results.EmulatedRun{}, err
		}
		backends[i] = balancer.Backend{Addr: p.Host, Weight: weights[i]}
	}
	dir, err := os.MkdirTemp("", "offload-balancer-")
	if err != nil {
		return results.EmulatedRun{}, err
	}
	defer os.RemoveAll(dir)
	listen, err := freePort()
	if err != nil {
		return results.EmulatedRun{}, err
	}
	proc, err := balancer.Start(ctx, balancer.Config{Algorithm: rj.alg.Label, Listen: listen, Backends: backends, Dir: dir,
		ServerTimeout: e.eo.Timeout}, balancer.Options{Binary: e.binary(rj.alg.Program)})
	if err != nil {
		return results.EmulatedRun{}, err
	}
	stopped := false
	defer func() {
		if !stopped {
			_ = proc.Stop()
		}
	}()
	tr := testbed.NewLimitedHTTPTransport([]string{proc.URL()}, e.inFlight)
	defer tr.CloseIdleConnections()
	tc := e.clientConfig(ctx, rj.job.Seed)
	tc.Balanced, tc.Transport = true, tr
	res, err := testbed.Run(ctx, tc)
	stopped = true
	if serr := proc.Stop(); err == nil {
		err = serr // it died during the run, or exited badly when stopped
	}
	if err != nil {
		return results.EmulatedRun{}, err
	}
	return e.record(res, rj.job, rj.label), nil
}

// entry is the plan's entry of a label.
func (e *emulation) entry(label string) (policies.Entry, error) {
	for _, p := range e.plan.Policies {
		if p.Label == label {
			return p, nil
		}
	}
	return policies.Entry{}, fmt.Errorf("no policy %q in the plan", label)
}

// freePort is a loopback address whose port was free a moment ago: the
// kernel's pick, released for the balancer to bind. Another program may
// take it in between; the balancer then fails to start, with its log.
func freePort() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := ln.Addr().String()
	return addr, ln.Close()
}

// counterparts are the simulator's runs set beside the real balancers':
// each real label's offload policy, the same cells and replicates, under
// the real label, so that comparison.csv sets the real program (emulated)
// beside the model of it (simulated).
func counterparts(rjs []realJob, sim []results.Run) []results.Run {
	type key struct {
		policy string
		seed   int
	}
	by := map[key]results.Run{}
	for _, r := range sim {
		by[key{r.Policy, r.Seed}] = r
	}
	var out []results.Run
	for _, rj := range rjs {
		if r, ok := by[key{rj.job.Policy, rj.job.Seed}]; ok {
			r.Policy = rj.label
			out = append(out, r)
		}
	}
	return out
}

// checkBalancers refuses what a real balancer cannot be run with.
func checkBalancers(eo *Options, plan *experiment.Plan) error {
	if len(eo.Balancers) == 0 {
		return nil
	}
	if len(eo.External) > 0 {
		return runner.BadInputf("--balancer with --tier: the balancer runs in front of tiers offload starts itself on 127.0.0.1, which apply the tasks' delays")
	}
	for _, b := range eo.Balancers {
		if b.Program != balancer.HAProxy && b.Program != balancer.Nginx {
			return runner.BadInputf("--balancer %q: allowed: haproxy, nginx", b.Program)
		}
	}
	if sc := plan.Scenario; sc.Timeout > 0 || sc.Retries > 0 {
		return runner.BadInputf("--balancer with the scenario's timeout %v or retries %d: a real balancer's choice is final (no retry), and it has no timeout of the model's", sc.Timeout, sc.Retries)
	}
	if len(realJobs(plan, eo.Balancers)) == 0 {
		return runner.BadInputf("--balancer: none of the policies has a counterpart in the real balancers (round-robin, least-conn, p2c)")
	}
	for _, b := range eo.Balancers {
		if b.Missing != nil {
			return b.Missing
		}
	}
	return nil
}
