package cmd

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/offload-sim/offload/internal/estimators"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/runner"
	"github.com/offload-sim/offload/internal/scenario"
)

// queue is one queue of `offload model`: c servers of rate μ fed at λ, with
// service-time variability C_s²; Tier names it when it is a scenario's.
type queue struct {
	Tier    string
	Servers int
	Rate    float64 // λ, tasks/s
	Mu      float64 // μ, tasks/s per server
	Cs2     float64
}

// scenarioQueues is every tier of a scenario as one queue fed at rate, as if
// all load went to it.
func scenarioQueues(sc *scenario.Scenario, rate float64) ([]queue, error) {
	cfg, err := experiment.Config(sc)
	if err != nil {
		return nil, runner.BadInput(err)
	}
	var qs []queue
	for _, t := range cfg.Tiers {
		qs = append(qs, queue{Tier: t.Name, Servers: t.Servers, Rate: rate, Mu: t.Mu, Cs2: t.Cs2})
	}
	return qs, nil
}

// writeModel writes ρ, Erlang C, the M/M/c and the Allen–Cunneen waits of
// each queue to out, as a table or as CSV (named tiers in a first column);
// an unstable queue (ρ ≥ 1) has no waits, and with CSV a note on errOut.
func writeModel(out, errOut io.Writer, qs []queue, named, asCSV bool) error {
	if asCSV {
		return writeModelCSV(out, errOut, qs, named)
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "servers\trate (1/s)\tmu (1/s)\tcs2\trho\terlang C\tWq M/M/c (s)\tWq Allen–Cunneen (s)\t"
	if named {
		head = "tier\t" + head
	}
	fmt.Fprintln(tw, head)
	for _, r := range qs {
		if named {
			fmt.Fprintf(tw, "%s\t", r.Tier)
		}
		rho := r.Rate / (float64(r.Servers) * r.Mu)
		fmt.Fprintf(tw, "%d\t%g\t%g\t%.4g\t%.4g\t", r.Servers, r.Rate, r.Mu, r.Cs2, rho)
		if rho >= 1 {
			fmt.Fprintf(tw, "unstable\tunstable\tunstable\t\n")
			continue
		}
		fmt.Fprintf(tw, "%.6g\t%.6g\t%.6g\t\n", estimators.ErlangC(r.Servers, r.Rate/r.Mu),
			estimators.MMcWait(r.Servers, r.Rate, r.Mu), estimators.AllenCunneen(r.Servers, r.Rate, r.Mu, estimators.PoissonCa2, r.Cs2))
	}
	return tw.Flush()
}

func writeModelCSV(out, errOut io.Writer, qs []queue, named bool) error {
	w := csv.NewWriter(out)
	head := []string{"servers", "rate", "mu", "cs2", "rho", "erlang_c", "wq_mmc_s", "wq_allen_cunneen_s"}
	if named {
		head = append([]string{"tier"}, head...)
	}
	_ = w.Write(head)
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, r := range qs {
		rho := r.Rate / (float64(r.Servers) * r.Mu)
		rec := []string{strconv.Itoa(r.Servers), g(r.Rate), g(r.Mu), g(r.Cs2), g(rho), "", "", ""}
		if rho < 1 {
			rec[5] = g(estimators.ErlangC(r.Servers, r.Rate/r.Mu))
			rec[6] = g(estimators.MMcWait(r.Servers, r.Rate, r.Mu))
			rec[7] = g(estimators.AllenCunneen(r.Servers, r.Rate, r.Mu, estimators.PoissonCa2, r.Cs2))
		} else {
			name := "the queue"
			if r.Tier != "" {
				name = "tier " + r.Tier
			}
			fmt.Fprintf(errOut, "offload model: %s is unstable (rho = %g ≥ 1)\n", name, rho)
		}
		if named {
			rec = append([]string{r.Tier}, rec...)
		}
		_ = w.Write(rec)
	}
	w.Flush()
	return w.Error()
}
