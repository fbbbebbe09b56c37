package cmd

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/offload-sim/offload/internal/report"
	"github.com/offload-sim/offload/internal/testbed"
	"github.com/spf13/cobra"
)

// testbedCommands are the HTTP emulation commands (DESIGN §7).
func testbedCommands(io IO) []*cobra.Command {
	return []*cobra.Command{newServeTierCmd(io, nil), newEmulateCmd(io, nil)}
}

var tierNameRE = regexp.MustCompile(`^[a-z0-9_-]+$`)

// parseTierURLs reads --tier name=URL flags against the scenario's tiers.
func parseTierURLs(flags []string, tiers []string) (map[string]string, error) {
	out := map[string]string{}
	for _, f := range flags {
		name, url, ok := strings.Cut(f, "=")
		if !ok || name == "" || !(strings.HasPrefix(url, "http://") || strings.HasPrefix(url, "https://")) {
			return nil, badInputf("--tier %q: want name=http://host:port", f)
		}
		if !contains(tiers, name) {
			return nil, badInputf("--tier %q: the scenario has no tier %q (tiers: %s)", f, name, strings.Join(tiers, ", "))
		}
		if _, dup := out[name]; dup {
			return nil, badInputf("--tier %q: tier %s given twice", f, name)
		}
		out[name] = strings.TrimSuffix(url, "/")
	}
	return out, nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// checkTimeScale refuses a time-scale that is not a positive finite number.
func checkTimeScale(x float64) error {
	if !(x > 0) || x > 1e6 {
		return badInputf("--time-scale %v: must be > 0 (wall seconds per model second; 1 is real time)", x)
	}
	return nil
}

// print writes the accounting, the emulated-vs-simulated table and what it
// means to stdout. invalid counts each policy's invalid runs, which the
// table marks and the ranking leaves out.
func (e *emulation) print(wall time.Duration, cs []report.Comparison, invalid map[string]int) {
	w := e.o.io.Out
	var sent, completed, rejected, failed int
	for _, r := range e.runs {
		sent, completed, rejected, failed = sent+r.Sent, completed+r.Completed, rejected+r.Rejected, failed+r.Failed
	}
	fmt.Fprintf(w, "emulated %d runs (%d policies × %d replicates, %v + %v warmup of arrivals each, time-scale %g) in %v\n",
		len(e.runs), len(e.plan.Policies), e.plan.Scenario.Seeds, e.o.duration, e.o.warmup, e.o.timeScale, wall.Round(time.Second))
	fmt.Fprintf(w, "requests: sent %d = completed %d + rejected %d + failed %d\n", sent, completed, rejected, failed)
	fmt.Fprintf(w, "requests in flight: at most %d (%s), peak %d\n", e.inFlight, fdNote(e.fd), e.peak)
	if e.firstErr != nil {
		fmt.Fprintf(w, "first rejection or failure: %v\n", e.firstErr)
	}
	for i, ch := range e.checks {
		for _, h := range ch.health {
			fmt.Fprintf(w, "%s, replicate %d: %s\n", e.runs[i].Policy, e.runs[i].Seed, h)
		}
	}
	fmt.Fprintf(w, "client schedule lag (worst run): mean %v, p99 %v, max %v\n\n", e.lag.Mean, e.lag.P99, e.lag.Max)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "policy\truns\temulated mean (s)\tsimulated mean (s)\tΔ mean\temulated P95 (s)\tsimulated P95 (s)\tΔ P95\trejected\tfailed\tinvalid\t")
	nInvalid := 0
	for _, c := range cs {
		mark := "-"
		if n := invalid[c.Policy]; n > 0 {
			mark, nInvalid = fmt.Sprintf("%d INVALID", n), nInvalid+n
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t\n", c.Policy, c.Runs,
			withCI(c.EmuMean, c.EmuMeanCI95), withCI(c.SimMean, c.SimMeanCI95), pct(c.MeanDiffPct),
			num(c.EmuP95), num(c.SimP95), pct(c.P95DiffPct), rate(c.RejectionRate), c.Failed, mark)
	}
	_ = tw.Flush()
	agree, pairs := rankAgreement(cs)
	fmt.Fprintf(w, "\nranking by mean latency: emulation and simulation order %d of %d policy pairs alike.\n", agree, pairs)
	if nInvalid > 0 {
		fmt.Fprintf(w, "INVALID: %d of %d runs failed more than --max-failures %g%% of their requests; they are left out of the table's means (runs counts the valid ones) and of the ranking, which is therefore not a verdict on all policies.\n",
			nInvalid, len(e.runs), 100*e.o.maxFailures)
	}
	fmt.Fprintln(w, whyTheyDiffer)
}

// fdNote describes the descriptor limit the in-flight bound came from.
func fdNote(fd testbed.FDLimit) string {
	switch {
	case fd.Soft == 0:
		return fmt.Sprintf("descriptor limit unknown (%v), %d assumed", fd.Err, assumedFDLimit)
	case fd.Raised():
		return fmt.Sprintf("descriptor soft limit raised from %d to the hard limit %d", fd.Before, fd.Hard)
	case fd.Err != nil:
		return fmt.Sprintf("descriptor soft limit %d, hard %d; raising it failed: %v", fd.Soft, fd.Hard, fd.Err)
	}
	return fmt.Sprintf("descriptor soft limit %d, hard %d", fd.Soft, fd.Hard)
}

// whyTheyDiffer is the sentence the table needs (DESIGN §7).
const whyTheyDiffer = `Why they differ: both see the same arrival times, sizes and delays, but in
the emulation every delay and service is a Go timer that fires late by up
to about a millisecond, each task pays an HTTP round trip on loopback and
the client's own dispatch cost, and the policy's view changes when a
request is sent or answered rather than at the exact model instant; these
add a few ms of wall time per task (divided by --time-scale in model
seconds). Where a tier is saturated the overshoot compounds: each service
runs a little long, so the real server is slower than the model's and its
queue grows faster.`

// rankAgreement counts the policy pairs whose order by mean latency is the
// same emulated and simulated.
func rankAgreement(cs []report.Comparison) (agree, pairs int) {
	for i := range cs {
		for j := i + 1; j < len(cs); j++ {
			a, b := cs[i], cs[j]
			if math.IsNaN(a.EmuMean + b.EmuMean + a.SimMean + b.SimMean) {
				continue
			}
			pairs++
			if (a.EmuMean < b.EmuMean) == (a.SimMean < b.SimMean) {
				agree++
			}
		}
	}
	return agree, pairs
}

// withCI formats a mean with its 95% half-width, when there is one.
func withCI(mean, ci float64) string {
	if math.IsNaN(ci) || math.IsInf(ci, 0) {
		return num(mean)
	}
	return num(mean) + " ± " + num(ci)
}

func pct(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "-"
	}
	return fmt.Sprintf("%+.1f%%", x)
}

func rate(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*x)
}
