package gymenv

import (
	"errors"
	"fmt"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/scenario"
)

// Setup is what every environment of a server shares: the scenario as an
// engine configuration, the observation's layout and the hello message.
type Setup struct {
	// cfg is the scenario's configuration with every task measured: an
	// episode's return covers all its tasks, so the engine must run until
	// each has reached its tier (its completion is then known), warmup
	// ones included. Arrivals and decisions are the scenario's: the warmup
	// only decides which tasks a run measures, and where its loop may stop.
	cfg engine.Config
	// warmup and warmupTime are the scenario's own, for the measured flag
	// of each task in info (the tasks `offload run` measures).
	warmup     int
	warmupTime float64
	seed       uint64
	tiers      []dispatch.Tier
	fields     []Field
	data       bool
	hello      Hello
}

// Field is one entry of the observation vector.
type Field struct {
	Name string `json:"name"`
	// Clairvoyant marks what a real dispatcher could not know at the
	// decision (the task's true size): a learner that reads it belongs
	// with the clairvoyant baselines, apart from the others.
	Clairvoyant bool `json:"clairvoyant"`
}

// Hello is the server's first frame (docs/env.md): the protocol, the
// tiers, the observation's fields and the scenario's baselines.
type Hello struct {
	Protocol string      `json:"protocol"`
	Version  int         `json:"version"`
	Scenario string      `json:"scenario"`
	Seed     uint64      `json:"seed"`
	Envs     int         `json:"envs"`
	Tiers    []TierInfo  `json:"tiers"`
	Fields   []Field     `json:"fields"`
	Episode  EpisodeInfo `json:"episode"`
	// Baselines are the scenario's policy entries, which `offload run`
	// runs on the same replicates, marked as the fields are.
	Baselines []Baseline `json:"baselines"`
}

// TierInfo is one tier as a policy knows it (dispatch.Tier).
type TierInfo struct {
	Name      string  `json:"name"`
	Kind      string  `json:"kind"`
	Servers   int     `json:"servers"`
	Speed     float64 `json:"speed"`
	Mu        float64 `json:"mu"`
	MeanDelay float64 `json:"mean_delay"`
	Cs2       float64 `json:"cs2"`
}

// EpisodeInfo is the scenario's run length: an episode is one run, warmup
// included.
type EpisodeInfo struct {
	Tasks      int     `json:"tasks"`
	Warmup     int     `json:"warmup"`
	Duration   float64 `json:"duration"`
	WarmupTime float64 `json:"warmup_time"`
}

// Baseline is one policy entry of the scenario.
type Baseline struct {
	Label       string `json:"label"`
	Policy      string `json:"policy"`
	Clairvoyant bool   `json:"clairvoyant"`
}

// Protocol names the wire format of docs/env.md; Version is its version.
const (
	Protocol = "offload-env"
	Version  = 1
)

// New builds the setup of a validated scenario. The environment drives one
// device and runs one configuration: a scenario with several devices or a
// sweep of several cells is refused, naming the field.
func New(sc *scenario.Scenario) (*Setup, error) {
	if sc.DeviceCount() > 1 {
		return nil, fmt.Errorf("devices: %d: the environment drives one device (allowed: 1)", sc.DeviceCount())
	}
	plan, err := experiment.NewPlan(sc.Name, sc)
	if err != nil {
		return nil, err
	}
	if len(plan.Cells) != 1 {
		return nil, fmt.Errorf("sweep: %d cells: the environment runs one configuration (allowed: no sweep; --set sweep=null, and the swept field with --set)", len(plan.Cells))
	}
	one := plan.Cells[0].Scenario
	cfg, err := experiment.Config(one)
	if err != nil {
		return nil, err
	}
	s := &Setup{cfg: *cfg, warmup: cfg.Warmup, warmupTime: cfg.WarmupTime, seed: sc.Seed,
		tiers: experiment.DispatchTiers(cfg), data: !cfg.Data.None()}
	if s.cfg.Tasks > 0 {
		s.cfg.Tasks, s.cfg.Warmup = cfg.Tasks+cfg.Warmup, 0
	} else {
		s.cfg.Duration, s.cfg.WarmupTime = cfg.Duration+cfg.WarmupTime, 0
	}
	s.fields = fields(s.tiers, s.data)
	s.hello = Hello{Protocol: Protocol, Version: Version, Scenario: one.Name, Seed: sc.Seed, Fields: s.fields,
		Episode: EpisodeInfo{Tasks: cfg.Tasks, Warmup: cfg.Warmup, Duration: cfg.Duration, WarmupTime: cfg.WarmupTime}}
	for _, t := range s.tiers {
		s.hello.Tiers = append(s.hello.Tiers, TierInfo{Name: t.Name, Kind: t.Kind.String(), Servers: t.Servers, Speed: t.Speed,
			Mu: t.Mu, MeanDelay: t.MeanDelay, Cs2: t.Cs2})
	}
	for _, e := range plan.Policies {
		pol, err := plan.NewPolicy(experiment.Job{Policy: e.Label})
		if err != nil {
			return nil, err
		}
		cv := dispatch.CapabilitiesOf(pol).Clairvoyant
		s.hello.Baselines = append(s.hello.Baselines, Baseline{Label: e.Label, Policy: e.Name, Clairvoyant: cv})
	}
	return s, nil
}

// Per-tier fields of the observation, in this order, then the task's.
const (
	fQueued = iota
	fBusy
	fInTransit
	fAge
	perTier
)

// fields lays out the observation: per tier q, b, in transit and the
// observation's age; then the decision's time, the task's data (when the
// scenario draws any) and its size, which only a clairvoyant dispatcher
// would know.
func fields(tiers []dispatch.Tier, data bool) []Field {
	var fs []Field
	for _, t := range tiers {
		for _, f := range []string{"queued", "busy", "in_transit", "age"} {
			fs = append(fs, Field{Name: t.Name + "." + f})
		}
	}
	fs = append(fs, Field{Name: "time"})
	if data {
		fs = append(fs, Field{Name: "data"})
	}
	return append(fs, Field{Name: "size", Clairvoyant: true})
}

// Fields is the observation's layout.
func (s *Setup) Fields() []Field { return s.fields }

// Tiers is the number of actions: an action is a tier's index.
func (s *Setup) Tiers() int { return len(s.tiers) }

// errNoTask is an episode without a single decision (a duration-mode
// scenario whose arrivals all fall after its end).
var errNoTask = errors.New("the episode has no task to decide: lengthen the scenario's duration or raise its rate")
