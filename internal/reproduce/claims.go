package reproduce

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/offload-sim/offload/internal/analysis"
	"github.com/offload-sim/offload/internal/claims"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/runner"
)

// staleSection is what claims.md adds beyond the paper: the staleness
// experiment's "Where the hybrid earns its keep" (not one of the paper's
// claims); "" without that experiment.
func staleSection(got map[string]*runner.Result) string {
	r, ok := got[stalenessName]
	if !ok || r == nil {
		return ""
	}
	return "\n" + staleReport(r.Plan, runner.OutcomeRuns(r.Outcomes))
}

// judgeClaims judges claims 1–5 on the experiments' results, by spec name;
// claim 6 is not run (the caller fills it from the emulation).
func judgeClaims(got map[string]*runner.Result) []claims.Claim {
	load := runner.OutcomeRuns(got[sweepLoadName].Outcomes)
	burst := got[burstName]
	return []claims.Claim{
		meanLatencyClaim(load, got[explorationName]),
		claims.LargeTail(load),
		claims.MAPE(analysis.ShadowRuns(got[mapeName].Outcomes)),
		burstClaim(burst.Plan, burst.Outcomes, burst.Args.Window),
		claims.DecisionCost(decisionNs(got[decisionName].Outcomes)),
		claims.NotRunClaim(6, "Not run: pass --emulate to run the HTTP emulation."),
	}
}

// meanLatencyClaim is claim 1, with the exploration runs, if there are any,
// as its evidence.
func meanLatencyClaim(load []results.Run, exploration *runner.Result) claims.Claim {
	c1 := claims.MeanLatency(load)
	if exploration != nil {
		c1.Evidence = claims.Exploration(runner.OutcomeRuns(exploration.Outcomes))
	}
	if len(c1.Evidence) > 0 {
		c1.Notes = append(c1.Notes, "The exploration runs (folder "+explorationName+", "+sweepLoadName+"'s scenario under the same seeds) add "+claims.EpsZero+
			", hybrid with ε = 0: hybrid − "+claims.EpsZero+" is what ε-exploration costs or gains at each load, and "+claims.EpsZero+
			" − edge-first what the estimator does without exploring (paired, 95%). They explain the verdict and do not count toward it.")
		if why := claims.ExplainByExploration(c1); why != "" {
			c1.Notes = append(c1.Notes, why)
		}
	}
	return c1
}

// writeClaims writes claims.md and prints the verdicts; failed says whether
// a claim FAILed.
func writeClaims(d *runner.Folder, scale, version string, cs []claims.Claim, extra string, out io.Writer) (failed bool, err error) {
	// The scale alone, not a command line that would leave out the others
	// (--emulate, --seed, --baselines): the manifest keeps the whole one.
	prov := fmt.Sprintf("Made by `offload %s` at `--scale %s` (offload %s); manifest.json holds the whole command, and the runs are in the folders beside this file.", Name, scale, version)
	md := claims.Markdown("The paper's claims", prov, cs) + extra
	if err := d.WriteFile("claims.md", func(w io.Writer) error { _, err := io.WriteString(w, md); return err }); err != nil {
		return false, err
	}
	for _, c := range cs {
		fmt.Fprintf(out, "claim %d: %-12s %s\n", c.ID, c.Verdict, c.Text)
		failed = failed || c.Verdict == claims.Fail
	}
	fmt.Fprintln(out, "wrote", filepath.Join(d.Path(), "claims.md"))
	return failed, nil
}

// decisionNs lists hybrid's mean decision time per replicate.
func decisionNs(outs []experiment.Outcome) []float64 {
	var ns []float64
	for _, out := range outs {
		if out.Policy == policies.NameHybrid {
			ns = append(ns, out.Run.Get(results.ColDecisionNs))
		}
	}
	return ns
}
