package scenario

// Estimator holds the estimator-policy parameters (docs/design.md §2, §3).
type Estimator struct {
	Window  float64 `yaml:"window" label:"rate window" unit:"s"`       // s, sliding window of the arrival-rate estimate, > 0
	Epsilon float64 `yaml:"epsilon" label:"exploration probability ε"` // ε-greedy exploration probability, [0, 1]
	RhoMax  float64 `yaml:"rho_max" label:"ρ̂ cap"`                    // cap on ρ̂ in the model component, (0, 1)
	Penalty Penalty `yaml:"penalty" label:"penalty"`                   // utilisation penalty of the routing score
	// Ca2 is the model component's C_a²: poisson (1, omitted) or online,
	// each tier's inter-dispatch SCV over the window (docs/design.md §2.13).
	Ca2 string `yaml:"ca2,omitempty"`
}

// Penalty is the routing score's utilisation penalty: above Threshold the
// score is multiplied by 1 + K·(ρ̂ − θ)/(1 − θ). K = 0 switches it off.
type Penalty struct {
	Threshold float64 `yaml:"threshold" label:"threshold θ"` // θ ∈ [0, 1)
	K         float64 `yaml:"k" label:"k"`                   // ≥ 0
}

func (c *checker) estimator() {
	e := c.s.Estimator
	at := func(f ...string) []string { return sub(path("estimator"), f...) }
	c.Num(at("window"), e.Window, e.Window > 0, "must be > 0 (s)")
	c.Upper(at("window"), e.Window, MaxWindow, " s")
	c.Num(at("epsilon"), e.Epsilon, e.Epsilon >= 0 && e.Epsilon <= 1, "must be in [0, 1] (a probability)")
	c.Num(at("rho_max"), e.RhoMax, e.RhoMax > 0 && e.RhoMax < 1, "must be in (0, 1)")
	p := e.Penalty
	c.Num(at("penalty", "threshold"), p.Threshold, p.Threshold >= 0 && p.Threshold < 1, "must be in [0, 1)")
	c.Num(at("penalty", "k"), p.K, p.K >= 0, "must be ≥ 0 (0 switches the penalty off)")
	c.Upper(at("penalty", "k"), p.K, MaxPenaltyK, "")
	if e.Ca2 != "" && e.Ca2 != "poisson" && e.Ca2 != "online" {
		c.Add(at("ca2"), "%q is not allowed: must be poisson or online", e.Ca2)
	}
}
