package policies

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/workload"
)

// Spec is one row of the policy registry: everything the rest of the tool
// derives from (the --policy names and help, scenario validation, the
// "allowed: …" messages, plot legend order, the tests' lists), through
// this package's functions; outside it, a row's name and whether it runs
// a program are all that is read.
//
// Adding a policy is a new file with its type and constructor, plus one row
// in registry (and a style entry in internal/chart). Only the paper's eight
// have paper set, so a new policy never joins the default set and no
// existing scenario's resolved form or hash changes when one is added.
type Spec struct {
	Name    string
	paper   bool   // one of the paper's eight: part of the default policy set
	summary string // one line, for --help and the docs
	// predicts is true for policies whose decisions carry a predicted wait
	// (so runs.csv has their MAPE).
	predicts bool
	// options are what an entry of this policy may set; an unknown option is
	// an error naming the allowed ones.
	options []option
	// needs tells whether the policy is valid for these tier kinds; "" when
	// it is, else why not (edge-first needs an edge tier).
	needs func(kinds []dispatch.Kind) string
	// construct builds the policy. b.options has been checked against options.
	construct func(b Build) (dispatch.Policy, error)
	// Program is true for a policy that runs an external program (exec):
	// it needs a command, so it is no baseline, and what construct returns must
	// be started per run and closed after (extpolicy.Policy).
	Program bool
}

// Build is what a policy's constructor receives: one uniform signature for
// every policy, so that the registry can build any of them.
type Build struct {
	Tiers []dispatch.Tier
	// Params are the estimator parameters of the scenario's estimator block;
	// an entry's own options override them for that entry.
	Params Params
	// options are the entry's options, already checked by the spec.
	options values
	// Rand is the policy's own stream (ties, ε, random choices). Never nil.
	Rand *rand.Rand
	// Sizes is the scenario's task-size law, for the policies whose rule is
	// computed from it once per run (sita-e, sita-opt); the zero Dist when
	// the caller has none, which those policies refuse.
	Sizes workload.Dist
	// Rate is the scenario's base arrival rate, tasks/s (bursts aside), for
	// the policies tuned to it (static-opt); 0 when the caller has none.
	Rate float64
	// MeanReply is the tasks' mean reply size, bits, for hybrid-energy's
	// expected receive energy; 0 when none.
	MeanReply float64
	// Device is which of Devices dispatchers in front of the pool this
	// policy decides for (from 0); Devices is 0 or 1 when there is one.
	// Round-robin starts its rotation where its device's share begins.
	Device, Devices int
}

// registry returns every policy, in the order tables, legends and messages
// list them: the paper's eight first, in docs/design.md §3 order, then the
// reference baselines of §3.7. The slice is new
// on every call; nothing is shared.
func registry() []Spec {
	return []Spec{
		estimatorSpec(NameHybrid, "argmin of the hybrid wait estimate (Allen–Cunneen blended with the queue) + 1/μ + D̄, ε-greedy", modeHybrid),
		estimatorSpec(NameModelOnly, "as hybrid with β ≡ 0: the Allen–Cunneen model alone", modeModel),
		estimatorSpec(NameQueueOnly, "as hybrid with β ≡ 1: the observed queue alone", modeQueue),
		{Name: NameJSQ, paper: true, summary: "fewest tasks present (q + b), blind to speed and delay", construct: buildJSQ},
		{Name: NameJSQS, paper: true, summary: "shortest expected delay: D̄ + (q + b + 1)/(cμ)", construct: buildJSQS},
		{Name: NameEdgeFirst, paper: true, summary: "always the first edge tier", needs: needsEdge, construct: buildEdgeFirst},
		{Name: NameRandom, paper: true, summary: "uniformly random tier", construct: buildRandom},
		{Name: NameOracle, paper: true, summary: "clairvoyant greedy: earliest completion given every dispatched task's size and delay", construct: buildOracle},
		powerOfDSpec(),
		ageSpec(),
		{Name: NameLWL, summary: "least work left: earliest expected finish D̄ + max(0, F − t − D̄) + 1/μ from the sizes already sent (knows sizes after dispatch)", construct: buildLWL},
		{Name: nameSITAE, summary: "size intervals with load ∝ c·s, small sizes to the smallest delay (knows the task's size)", construct: buildSITAE},
		{Name: nameSITAOpt, summary: "size intervals minimising the predicted mean latency (Allen–Cunneen per interval; knows the task's size)", construct: buildSITAOpt},
		{Name: NameStaticOpt, summary: "best static random split at the base rate: argmin Σ p_i (D̄_i + Ŵ_i(p_i λ) + 1/μ_i)", construct: buildStaticOpt},
		{Name: NameJIQ, summary: "join the idle queue: the idle tier of least D̄ + 1/μ, else uniformly random", construct: buildJIQ},
		roundRobinSpec(),
		weightedRRSpec(),
		leastConnSpec(),
		p2cSpec(),
		leastRequestSpec(),
		ewmaSpec(),
		peakEWMASpec(),
		prequalSpec(),
		execSpec(),
		energySpec(),
	}
}

// Lookup returns the spec of the named policy.
func Lookup(name string) (Spec, bool) {
	for _, s := range registry() {
		if s.Name == name {
			return s, true
		}
	}
	return Spec{}, false
}

// Names returns every registered policy name, in registry order.
func Names() []string {
	var names []string
	for _, s := range registry() {
		names = append(names, s.Name)
	}
	return names
}

// Defaults returns the paper's eight policies, the set a scenario runs when
// it names none.
func Defaults() []string {
	var names []string
	for _, s := range registry() {
		if s.paper {
			names = append(names, s.Name)
		}
	}
	return names
}

// Baselines returns the reference baselines (docs/design.md §3.7), the
// registered policies outside the paper's set that run without a program
// of the user's, in registry order: reproduce --baselines runs them beside
// the paper's eight.
func Baselines() []string {
	var names []string
	for _, s := range registry() {
		if !s.paper && !s.Program {
			names = append(names, s.Name)
		}
	}
	return names
}

// HasEstimator reports whether the named policy predicts waits (and so has a
// MAPE).
func HasEstimator(name string) bool {
	s, ok := Lookup(name)
	return ok && s.predicts
}

// Estimators returns the paper's three estimators, whose predictions the
// mape experiment runs in shadow (NewPredictor), in registry order: hybrid,
// model-only, queue-only. NewPredictor also builds hybrid-age.
func Estimators() []string {
	var names []string
	for _, s := range registry() {
		if _, ok := estimatorModeOf(s.Name); ok && s.paper {
			names = append(names, s.Name)
		}
	}
	return names
}

// Entry is one policy of a run: the registry name, its label in every CSV,
// plot and table, and its options (as decoded from the scenario).
type Entry struct {
	Name    string
	Label   string
	Options map[string]any
}

// Make checks the entry against its spec and builds the policy from b
// (whose options it fills from the entry's checked options). The error names
// the label and, for a bad option, the option.
func Make(e Entry, b Build) (dispatch.Policy, error) {
	spec, ok := Lookup(e.Name)
	if !ok {
		return nil, unknownName(e.Name, Names())
	}
	return makeFrom(spec, e, b)
}

// makeFrom is Make with the entry's spec found.
func makeFrom(spec Spec, e Entry, b Build) (dispatch.Policy, error) {
	pol, err := build(spec, e.Options, b)
	if err != nil {
		label := cmp.Or(e.Label, e.Name)
		return nil, fmt.Errorf("policy %q: %w", label, err)
	}
	return pol, nil
}

// build checks options and b against spec and builds its policy, for
// Make, which names the entry in its errors. It never returns a nil
// policy, typed or not: a constructor's nil pointer with a nil error
// would fail only at the run's first decision, far from its cause.
func build(spec Spec, options map[string]any, b Build) (dispatch.Policy, error) {
	if b.Rand == nil {
		return nil, fmt.Errorf("nil random source")
	}
	if err := checkTiers(b.Tiers); err != nil {
		return nil, err
	}
	if spec.needs != nil {
		if why := spec.needs(kindsOf(b.Tiers)); why != "" {
			return nil, fmt.Errorf("%s", why)
		}
	}
	vals, probs := checkOptions(spec.options, options)
	if len(probs) > 0 {
		return nil, fmt.Errorf("option %s: %s", probs[0].Option, probs[0].Msg)
	}
	b.options = vals
	pol, err := spec.construct(b)
	if err != nil {
		return nil, err
	}
	if isNil(pol) {
		return nil, fmt.Errorf("constructor returned no policy (a nil %T)", pol)
	}
	return pol, nil
}

// isNil reports whether p is nil or holds a nil pointer, map, slice,
// function or channel.
func isNil(p dispatch.Policy) bool {
	if p == nil {
		return true
	}
	switch v := reflect.ValueOf(p); v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface:
		return v.IsNil()
	}
	return false
}

// New builds the named policy with no entry options: the scenario's
// estimator parameters p apply as they are. It knows no size law and no
// arrival rate, so sita-e, sita-opt and static-opt refuse it: build those
// with Make.
func New(name string, tiers []dispatch.Tier, p Params, rng *rand.Rand) (dispatch.Policy, error) {
	return Make(Entry{Name: name}, Build{Tiers: tiers, Params: p, Rand: rng})
}

// Problem is one thing wrong with a policy entry: the option concerned (""
// for the entry as a whole) and what is wrong.
type Problem struct{ Option, Msg string }

// Check validates an entry of a known policy without building it: its
// options and what it needs of the tiers (given by kind, in order). It is
// what scenario validation calls.
func Check(name string, options map[string]any, kinds []string) []Problem {
	spec, ok := Lookup(name)
	if !ok {
		return []Problem{{Msg: fmt.Sprintf("%q is not allowed: must be one of %s", name, strings.Join(Names(), ", "))}}
	}
	_, probs := checkOptions(spec.options, options)
	if spec.needs != nil {
		ks := make([]dispatch.Kind, 0, len(kinds))
		for _, k := range kinds {
			if kk, err := dispatch.ParseKind(k); err == nil {
				ks = append(ks, kk)
			}
		}
		if why := spec.needs(ks); why != "" {
			probs = append(probs, Problem{Msg: fmt.Sprintf("%q is not allowed: %s", name, why)})
		}
	}
	return probs
}

// Help lists the policies for --help: one line each, name and summary,
// with the options an entry may set and a mark on the paper's default set.
func Help() string {
	var b strings.Builder
	for _, s := range registry() {
		mark := " "
		if s.paper {
			mark = "*"
		}
		fmt.Fprintf(&b, "  %s %-11s %s", mark, s.Name, s.summary)
		if len(s.options) > 0 {
			names := make([]string, len(s.options))
			for i, o := range s.options {
				names[i] = o.Name
			}
			fmt.Fprintf(&b, " (options: %s)", strings.Join(names, ", "))
		}
		b.WriteByte('\n')
	}
	b.WriteString("  (* = the paper's default set)\n")
	return b.String()
}

func kindsOf(tiers []dispatch.Tier) []dispatch.Kind {
	ks := make([]dispatch.Kind, len(tiers))
	for i, t := range tiers {
		ks[i] = t.Kind
	}
	return ks
}

func needsEdge(kinds []dispatch.Kind) string {
	if slices.Contains(kinds, dispatch.Edge) {
		return ""
	}
	return "no tier has kind edge (edge-first sends every task to the first edge tier)"
}
