package cmd

import (
	"context"
	"fmt"
	"net"
	"time"

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
	// ready, if set, is told the address once listening (tests).
	ready func(addr string)
}

func newServeTierCmd(io IO, runF func(*serveTierOptions) error) *cobra.Command {
	o := &serveTierOptions{io: io}
	c := &cobra.Command{
		Use:     "serve-tier",
		Example: "  offload serve-tier --name edge --servers 4 --speed 25 --listen 127.0.0.1:8081\n  curl -s -d '{\"id\": 1, \"size\": 2.5}' http://127.0.0.1:8081/tasks",
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
every request already accepted (for at most --grace) and exits 0.`,
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
	if err := o.check(); err != nil {
		return err
	}
	s, err := testbed.NewServer(testbed.ServerConfig{Name: o.name, Servers: o.servers, Speed: o.speed,
		QueueLimit: o.queueLimit, TimeScale: o.timeScale, Index: o.index})
	if err != nil {
		return badInput(err)
	}
	ln, err := net.Listen("tcp", o.listen)
	if err != nil {
		return badInputf("--listen %s: %w", o.listen, err)
	}
	addr := ln.Addr().String()
	fmt.Fprintf(o.io.Out, "tier %s: serving http://%s (%d servers, speed %g, queue limit %d, time-scale %g)\n",
		o.name, addr, o.servers, o.speed, o.queueLimit, o.timeScale)
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
	st := s.State()
	fmt.Fprintf(o.io.Out, "tier %s: shut down; %d completed, %d rejected (rate %.3g), %d abandoned\n",
		o.name, st.Completed, st.Rejected, st.RejectionRate, st.Abandoned)
	return err
}
