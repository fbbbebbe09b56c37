package stats

// Coverage is the outcome of a coverage study of a Rule: many independent
// sequential runs, each stopped by the rule, each interval checked against
// a value known exactly.
type Coverage struct {
	Runs    int // sequential runs made
	Covered int // runs whose final interval holds the exact value
	Met     int // runs that stopped on their target, not on the cap
	// Lower and Upper are the Clopper–Pearson 95% interval of the coverage
	// Covered/Runs.
	Lower, Upper float64
	// MinReplicates, MaxReplicates and MeanReplicates are the replicates
	// the runs stopped at; MeanLooks the tests made per run (the first at
	// the rule's Min).
	MinReplicates, MaxReplicates int
	MeanReplicates, MeanLooks    float64
	// FirstLook is the runs that stopped at their first test, on Min
	// replicates, and FirstLookCovered those of them that covered: where
	// the bias of sequential stopping lives (Rule).
	FirstLook, FirstLookCovered int
	// FixedCovered counts the runs whose interval on their first Min
	// replicates covers, stopped or not: the coverage of a fixed number of
	// replicates on the same values, which sets the sequential rule's
	// apart from that of the replicates themselves.
	FixedCovered int
}

// Rate returns Covered/Runs.
func (c Coverage) Rate() float64 { return float64(c.Covered) / float64(c.Runs) }

// StudyCoverage runs the rule runs times on one series and counts how often
// its final interval holds exact, the true value of the statistic the rule
// estimates. Run r asks replicate(r, i) for i = 0, 1, 2, … in order, as far
// as the rule goes; the function owns the randomness and should derive
// replicate (r, i)'s stream from both, so that a study is reproducible and
// runs are independent. A value of exact the rule's statistic does not
// estimate (a run's finite-length bias, a warm-up left in) shows as a
// coverage below 95% that no rule can fix: the study is only as good as
// the replicates it is given. It panics unless runs ≥ 1.
func StudyCoverage(rule Rule, runs int, exact float64, replicate func(run, rep int) float64) Coverage {
	if runs < 1 {
		panic("stats: StudyCoverage needs at least one run")
	}
	c := Coverage{Runs: runs, MinReplicates: rule.Max}
	var reps, looks int
	values := make([]float64, 0, rule.Max)
	for r := range runs {
		values = values[:0]
		var d Decision
		runLooks := 0
		for {
			d = rule.Decide([][]float64{values})
			if d.N >= rule.Min {
				runLooks++
			}
			if d.Stop {
				break
			}
			for i := len(values); i < d.Next; i++ {
				values = append(values, replicate(r, i))
			}
		}
		looks += runLooks
		if len(values) >= rule.Min && rule.On.Estimate(values[:rule.Min]).Covers(exact) {
			c.FixedCovered++
		}
		covered := rule.On.Estimate(values).Covers(exact)
		if covered {
			c.Covered++
		}
		if runLooks == 1 {
			c.FirstLook++
			if covered {
				c.FirstLookCovered++
			}
		}
		if d.Met {
			c.Met++
		}
		reps += d.N
		c.MinReplicates = min(c.MinReplicates, d.N)
		c.MaxReplicates = max(c.MaxReplicates, d.N)
	}
	c.Lower, c.Upper = ClopperPearson(c.Covered, runs)
	c.MeanReplicates = float64(reps) / float64(runs)
	c.MeanLooks = float64(looks) / float64(runs)
	return c
}
