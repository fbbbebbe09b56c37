package reproduce

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/offload-sim/offload/internal/analysis"
	"github.com/offload-sim/offload/internal/claims"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/runner"
)

// burstName is the burst experiment's command, embedded scenario and folder.
const burstName = "burst"

// burstWindow is the burst experiment's window in a reproduction, s.
const burstWindow = 5.0

// burstSpec is the burst experiment: time series through repeated bursts,
// and per burst the peak and the recovery (docs/design.md §4).
func burstSpec() Experiment {
	return Experiment{Figures: analysis.BurstReportFigures, Spec: runner.Spec{Name: burstName, Embedded: burstName,
		Short: "Latency and cloud share through repeated load bursts",
		Long: `Run every policy through the bursts of the embedded burst scenario (or -f
FILE) and follow it in time windows: timeseries.csv (per window and policy,
averaged over replicates: mean and P95 latency, tier shares, λ̂, β and ρ̂ per
tier), bursts.csv (per burst and policy: baseline, peak windowed mean latency,
recovery time), and plots with the bursts shaded.`,
		Example:      "  offload burst -o results/burst\n  offload burst --window 2 --policy hybrid,edge-first",
		Window:       true,
		DurationMode: true,
		Prepare:      prepareBurst,
		Side:         analysis.SeriesSidecar,
		Outputs:      analysis.BurstOutputs,
		Files:        analysis.BurstFiles(),
		Plots:        analysis.BurstPlots(),
	}}
}

// burstStep is burst in a reproduction: claim 4. It keeps its run length
// at --scale ci, since it runs in duration mode.
func burstStep() step {
	return step{exp: burstSpec(), embedded: burstName, args: runner.Args{Window: burstWindow}, durationMode: true, section: true}
}

// maxWindows bounds a run's series, whose memory grows with the window count.
const maxWindows = 100000

// prepareBurst checks that bursts fall at known times, that one starts
// before arrivals end (else every statistic and figure would be empty),
// and that the series fits in memory.
func prepareBurst(plan *experiment.Plan, a runner.Args) error {
	if err := prepareSeries(burstName, plan, a); err != nil {
		return err
	}
	sc := plan.Scenario
	horizon := experiment.Horizon(sc)
	if len(experiment.BurstIntervals(sc, horizon)) > 0 {
		return nil
	}
	if len(sc.Arrivals.Bursts) == 0 {
		return fmt.Errorf("arrivals.bursts: none: the %s experiment follows the tiers through bursts; give at least one", burstName)
	}
	first := math.Inf(1)
	for _, b := range sc.Arrivals.Bursts {
		first = min(first, b.Start)
	}
	return fmt.Errorf("arrivals.bursts: the first starts at %g s, at or after the end of arrivals (warmup_time %g + duration %g = %g s): lengthen duration past %g, or start a burst earlier", first, sc.WarmupTime, sc.Duration, horizon, first-sc.WarmupTime)
}

// prepareSeries checks an experiment's time-series windows: the scenario
// in duration mode, the window count bounded.
func prepareSeries(name string, plan *experiment.Plan, a runner.Args) error {
	if !(a.Window > 0) || math.IsInf(a.Window, 0) {
		return fmt.Errorf("--window %g: need a window width > 0 (s)", a.Window)
	}
	horizon := experiment.Horizon(plan.Scenario)
	if horizon == 0 {
		return fmt.Errorf("%s: the scenario must be in duration mode (duration, warmup_time) so that its windows fall at known times; got tasks: %d (to shorten a run, use --set duration=SECONDS, not --tasks)", name, plan.Scenario.Tasks)
	}
	if n := horizon / a.Window; n > maxWindows {
		return fmt.Errorf("--window %g: %.0f windows over %g s of arrivals; at most %d are allowed (widen the window)", a.Window, n, horizon, maxWindows)
	}
	plan.SeriesWidth = a.Window
	return nil
}

// burstReps condenses each burst replicate for claim 4: mean cloud-share
// rise over bursts, and mean recovery time, a burst never recovered from
// counting as the whole gap until the next burst (or the end of arrivals).
func burstReps(plan *experiment.Plan, outs []experiment.Outcome, width float64) []claims.BurstRep {
	if plan == nil {
		return nil
	}
	horizon := experiment.Horizon(plan.Scenario)
	bursts := experiment.BurstIntervals(plan.Scenario, horizon)
	cloud := analysis.FirstCloud(plan)
	var reps []claims.BurstRep
	for _, out := range outs {
		var before, during, rec analysis.MeanAcc
		for k, st := range analysis.BurstStats(out.Series, width, bursts, horizon, cloud) {
			before.Add(st.CloudBefore)
			during.Add(st.CloudDuring)
			r := st.Recovery
			if math.IsNaN(r) {
				limit := horizon
				if k+1 < len(bursts) {
					limit = bursts[k+1].Start
				}
				r = limit - st.End
			}
			rec.Add(r)
		}
		reps = append(reps, claims.BurstRep{Policy: out.Policy, Seed: out.Seed, CloudBefore: before.Mean(), CloudDuring: during.Mean(), Recovery: rec.Mean()})
	}
	return reps
}

// burstClaim judges claim 4 against the static policies that are stable at
// the burst scenario's base load: a policy whose queue already grows between
// bursts has no level to recover to.
func burstClaim(plan *experiment.Plan, outs []experiment.Outcome, width float64) claims.Claim {
	var static, notes []string
	for _, s := range results.Summarize(runner.OutcomeRuns(outs)) {
		if !slices.Contains(staticPolicies(), s.Policy) {
			continue
		}
		if s.Unstable {
			notes = append(notes, fmt.Sprintf("%s is left out: a tier's offered load is above 1 even outside the bursts, so its latency has no level to recover to.", s.Policy))
			continue
		}
		static = append(static, s.Policy)
	}
	res := fmt.Sprintf("Recovery time is measured in windows of %g s: a recovery is known to within one window, so differences under %g s are below the resolution.", width, width)
	if len(static) > 0 {
		res += " Hybrid is compared with every static policy that is stable at the base load: " + strings.Join(static, ", ") + "."
	}
	notes = append([]string{res}, notes...)
	return claims.Bursts(burstReps(plan, outs, width), static, notes)
}

// staticPolicies are the policies whose routing ignores the system's state
// (claim 4's "static policies"), in the order claims.md lists them.
func staticPolicies() []string {
	return []string{policies.NameEdgeFirst, policies.NameRandom, policies.NameStaticOpt}
}
