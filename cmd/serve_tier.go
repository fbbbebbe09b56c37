package cmd

import (
	"context"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/offload-sim/offload/internal/emulate"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/scenario"
	"github.com/offload-sim/offload/internal/testbed"
	"github.com/spf13/cobra"
)

// serveTierOptions are the flags of `offload serve-tier`.
type serveTierOptions struct {
	io         IO
	name       string
	servers    int
	speed      float64
	queueLimit int
	index      int
	listen     string
	timeScale  float64
	grace      time.Duration
	scenario   string   // --scenario: the tier's settings from a scenario file
	tier       string   // --tier: which of its tiers
	sets       []string // --set, applied to the scenario
	// ready, if set, is told the address once listening (tests).
	ready func(addr string)
	cmd   *cobra.Command
}

func newServeTierCmd(io IO, runF func(*serveTierOptions) error) *cobra.Command {
	o := &serveTierOptions{io: io}
	c := &cobra.Command{
		Use:     "serve-tier",
		Example: "  offload serve-tier --name edge --servers 4 --speed 25 --listen 127.0.0.1:8081\n  curl -s -d '{\"id\": 1, \"size\": 2.5}' http://127.0.0.1:8081/tasks\n  offload serve-tier --scenario my.yaml --tier edge --time-scale 0.5 --listen 127.0.0.1:8081",
		Short:   "Serve one tier over HTTP for the emulation",
		Long: `Serve one tier: C workers behind one FIFO queue, over HTTP.

POST /tasks with {"id": 1, "size": 2.5} runs the task (it waits
size/speed × time-scale seconds) and answers with its timings; a full queue
answers 503 with a reason. GET /state reports the queue, busy workers,
completed and rejected counts. Behind a real load balancer, which chooses
the tier, the client sends each task's delay to every tier of the pool
({"id": 1, "size": 2.5, "delays": [0, 0.02]}); the tier waits its own, the
one at --index, before the task joins the queue, and names itself (name
and index) in its answer. SIGINT or SIGTERM stops accepting, answers
every request already accepted (for at most --grace) and exits 0.

With --scenario FILE --tier NAME the tier is the scenario's (after any
--set): its name, servers, speed, buffer (the queue limit, buffer minus
servers), its queue by class priority if its discipline is priority, and
its episodes (fixed, and the random slow-downs and failures of each run's
seed and replicate, which the emulation's requests carry), so that
'offload emulate --tier NAME=URL' runs it as the simulator does. --index
is then the tier's position in the scenario unless given; --name,
--servers, --speed and --queue-limit may be given only with the
scenario's own values (exit 2 otherwise: change the scenario, or --set
it). A ps or srpt discipline, or preemptive priority, is simulator-only
(exit 2).`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(o)
			}
			return runServeTier(c.Context(), o)
		},
	}
	fl := c.Flags()
	fl.StringVar(&o.name, "name", "", "tier `name` ([a-z0-9_-]+), required")
	fl.IntVar(&o.servers, "servers", 1, "workers (tasks in service at once)")
	fl.Float64Var(&o.speed, "speed", 1, "work units per model second of one worker")
	fl.IntVar(&o.queueLimit, "queue-limit", testbed.DefaultQueueLimit, "tasks that may wait beyond those in service; more get 503")
	fl.IntVar(&o.index, "index", 0, "the tier's position in its pool: the delay it applies of a task that carries them")
	fl.StringVar(&o.listen, "listen", "127.0.0.1:8080", "listen `address` (loopback by default; 0.0.0.0:PORT to serve other machines)")
	fl.Float64Var(&o.timeScale, "time-scale", 1, "wall seconds per model second")
	durationVar(fl, &o.grace, "grace", 30*time.Second, "on shutdown, how long accepted requests may take to finish")
	fl.StringVar(&o.scenario, "scenario", "", "take the tier from this scenario YAML `file` (with --tier)")
	fl.StringVar(&o.tier, "tier", "", "the scenario's tier to serve: its `name` (with --scenario)")
	fl.StringArrayVar(&o.sets, "set", nil, "override a field of --scenario, as emulate's --set (`path=value`, repeatable)")
	o.cmd = c
	return c
}

func (o *serveTierOptions) check() error {
	switch {
	case !scenario.ValidTierName(o.name):
		return badInputf("--name %q: want [a-z0-9_-]+", o.name)
	case o.servers < 1 || o.servers > scenario.MaxServers:
		return badInputf("--servers %d: must be in [1, %d]", o.servers, scenario.MaxServers)
	case !(o.speed >= scenario.MinSpeed && o.speed <= scenario.MaxSpeed):
		return badInputf("--speed %v is out of range: must be in [%g, %g] work units/s", o.speed, scenario.MinSpeed, scenario.MaxSpeed)
	case o.queueLimit < 1:
		return badInputf("--queue-limit %d: must be ≥ 1", o.queueLimit)
	case o.index < 0 || o.index >= testbed.MaxDelays:
		return badInputf("--index %d: must be in [0, %d)", o.index, testbed.MaxDelays)
	case o.grace < 0:
		return badInputf("--grace %v: must be ≥ 0", o.grace)
	}
	return checkTimeScale(o.timeScale)
}

func runServeTier(ctx context.Context, o *serveTierOptions) error {
	cfg, err := o.fromScenario()
	if err != nil {
		return err
	}
	if err := o.check(); err != nil {
		return err
	}
	cfg.Name, cfg.Servers, cfg.Speed, cfg.TimeScale, cfg.Index = o.name, o.servers, o.speed, o.timeScale, o.index
	if cfg.QueueLimit == 0 {
		cfg.QueueLimit = o.queueLimit
	}
	s, err := testbed.NewServer(cfg)
	if err != nil {
		return badInput(err)
	}
	ln, err := net.Listen("tcp", o.listen)
	if err != nil {
		return badInputf("--listen %s: %w", o.listen, err)
	}
	addr := ln.Addr().String()
	st := s.State()
	fmt.Fprintf(o.io.Out, "tier %s: serving http://%s (%d servers, speed %g, queue limit %d, time-scale %g%s)\n",
		o.name, addr, o.servers, o.speed, st.QueueLimit, o.timeScale, follows(st))
	if o.ready != nil {
		o.ready(addr)
	}
	srv := testbed.NewHTTPServer(s)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("tier %s: %w", o.name, err)
	case <-ctx.Done():
	}
	err = testbed.Shutdown(srv, o.grace)
	<-served
	st = s.State()
	fmt.Fprintf(o.io.Out, "tier %s: shut down; %d completed, %d rejected (rate %.3g), %d abandoned, %d lost\n",
		o.name, st.Completed, st.Rejected, st.RejectionRate, st.Abandoned, st.Lost)
	return err
}

// follows says what a tier from a scenario follows besides its queue.
func follows(st testbed.State) string {
	var s []string
	if st.Priority {
		s = append(s, "queue by priority")
	}
	if st.Episodes {
		s = append(s, "the scenario's episodes")
	}
	if len(s) == 0 {
		return ""
	}
	return "; " + strings.Join(s, ", ")
}

// fromScenario takes the tier's settings from --scenario's tier --tier
// into o's fields and the returned config (its queue limit, priority and
// episodes); the zero config without --scenario. A flag given beside it
// must agree with the scenario.
func (o *serveTierOptions) fromScenario() (testbed.ServerConfig, error) {
	var cfg testbed.ServerConfig
	if o.scenario == "" {
		if o.tier != "" || len(o.sets) > 0 {
			return cfg, badInputf("--tier %q, --set %q: only with --scenario", o.tier, o.sets)
		}
		return cfg, nil
	}
	sf := scenarioFlags{file: o.scenario}
	sc, err := sf.load("", o.sets)
	if err != nil {
		return cfg, err
	}
	ec, err := experiment.Config(sc)
	if err != nil {
		return cfg, badInput(err)
	}
	if cfg, err = emulate.TierServer(ec, sc.Seed, o.tier); err != nil {
		return cfg, err
	}
	return cfg, o.agree(&cfg)
}

// agree takes the scenario tier's settings into o's fields, and refuses
// a flag given with another value.
func (o *serveTierOptions) agree(cfg *testbed.ServerConfig) error {
	limit := cfg.QueueLimit // the server's: 0 its default, −1 none may wait
	switch {
	case limit == 0:
		limit = testbed.DefaultQueueLimit
	case limit < 0:
		limit = 0
	}
	for _, f := range []struct {
		flag      string
		given, of any
		set       func()
	}{
		{"name", o.name, cfg.Name, func() { o.name = cfg.Name }},
		{"servers", o.servers, cfg.Servers, func() { o.servers = cfg.Servers }},
		{"speed", o.speed, cfg.Speed, func() { o.speed = cfg.Speed }},
		{"queue-limit", o.queueLimit, limit, func() {}}, // the config's own, which may be 0
		{"index", o.index, cfg.Index, func() { o.index = cfg.Index }},
	} {
		switch {
		case o.cmd == nil || !o.cmd.Flags().Changed(f.flag):
			f.set()
		case f.flag != "index" && f.given != f.of:
			return badInputf("--%s %v: the scenario's tier %s has %v; drop the flag, or change the scenario (--set)", f.flag, f.given, o.tier, f.of)
		}
	}
	return nil
}
