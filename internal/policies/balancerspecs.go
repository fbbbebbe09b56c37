package policies

import (
	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/lb"
)

// The registry rows of the production load balancers' algorithms
// (docs/policies.md, "Production load balancers"), which internal/lb
// implements: here their options are read and their weights made the
// real programs' integers. A tier is one backend server; each balancer
// counts its own outstanding requests and measures its own response times
// (dispatch.Feedback), and reads no tier's queue, but prequal's probes.

// The names of the production balancers' algorithms.
const (
	NameRoundRobin   = "round-robin"
	NameWeightedRR   = "weighted-round-robin"
	NameLeastConn    = "least-conn"
	NameP2C          = "p2c"
	NameLeastRequest = "least-request"
	nameEWMA         = "ewma"
	NamePeakEWMA     = "peak-ewma"
	NamePrequal      = "prequal"
)

// The draws option's values.
const (
	drawsWeights  = "weights"
	drawsHAProxy  = "haproxy"
	drawsDistinct = "distinct"
)

func choicesOption() option {
	return option{Name: "choices", Doc: "tiers drawn per decision, d (default 2)", Check: integer(1, 1000)}
}

func roundRobinSpec() Spec {
	return Spec{Name: NameRoundRobin, summary: "HAProxy roundrobin, nginx with equal weights: the tiers in turn, each balancer from its own start tier",
		construct: buildRoundRobin}
}

func weightedRRSpec() Spec {
	return Spec{Name: NameWeightedRR, summary: "nginx's smooth weighted round-robin over integer weights (capacity by default)",
		options: []option{weightsOption("capacity")}, construct: buildWeightedRR}
}

func leastConnSpec() Spec {
	return Spec{Name: NameLeastConn, summary: "HAProxy leastconn: fewest requests this balancer has outstanding (per weight), ties round-robin",
		options: []option{weightsOption("equal")}, construct: buildLeastConn}
}

func p2cSpec() Spec {
	return Spec{Name: NameP2C, summary: "power of d choices on the balancer's own outstanding counts (Envoy, gRPC least_request, HAProxy random(2))",
		options: []option{choicesOption(), weightsOption("equal"),
			{Name: "draws", Doc: "weights (each draw in proportion to the weights, independent: Envoy, gRPC; the default), haproxy (the chances of HAProxy's hash ring) or distinct (the d tiers distinct, as nginx's random two)",
				Check: oneOf(drawsWeights, drawsHAProxy, drawsDistinct)}},
		construct: buildP2C}
}

func leastRequestSpec() Spec {
	return Spec{Name: NameLeastRequest, summary: "Envoy LEAST_REQUEST: p2c with equal weights, else EDF on weight/(active+1)^bias",
		options: []option{choicesOption(),
			{Name: "bias", Doc: "active_request_bias (default 1.0; 0 is weighted round-robin)", Check: number(func(x float64) bool { return x >= 0 && x <= 100 }, "in [0, 100]")},
			weightsOption("equal")},
		construct: buildLeastRequest}
}

func ewmaOptions() []option {
	return []option{
		{Name: "decay", Doc: "τ, s: decay time of the latency average (default 10, Finagle's and Linkerd's)", Check: number(func(x float64) bool { return x > 0 && x <= 1e6 }, "in (0, 1e6] (s)")},
		{Name: "default_rtt", Doc: "s: the latency before a tier's first sample (tower's rule; Linkerd uses 0.03); default: none, Finagle's rule (0, penalised once requests are outstanding)", Check: number(func(x float64) bool { return x > 0 && x <= 1e6 }, "in (0, 1e6] (s)")},
	}
}

func ewmaSpec() Spec {
	return Spec{Name: nameEWMA, summary: "ours: peak-ewma without the peak rule (p2c on latency EWMA × (outstanding + 1))",
		options: ewmaOptions(), construct: ewmaBuilder(false)}
}

func peakEWMASpec() Spec {
	return Spec{Name: NamePeakEWMA, summary: "Finagle/Linkerd peak EWMA: p2c on peak-sensitive latency EWMA × (outstanding + 1)",
		options: ewmaOptions(), construct: ewmaBuilder(true)}
}

func prequalSpec() Spec {
	positive := func(want string) func(any) (any, error) {
		return number(func(x float64) bool { return x > 0 && x <= 1e6 }, want)
	}
	return Spec{Name: NamePrequal, summary: "Google's Prequal: async probes of RIF and latency, a reused pool, the hot-cold lexicographic rule",
		options: []option{
			{Name: "probes", Doc: "r_probe: probes sent after each decision, to distinct tiers (default 3)", Check: integer(1, 1000)},
			{Name: "pool", Doc: "m: most probes kept, one a tier (default 16)", Check: integer(1, 1024)},
			{Name: "max_age", Doc: "s: a probe older than this is dropped (default 1)", Check: positive("in (0, 1e6] (s)")},
			{Name: "remove", Doc: "r_remove: probes removed after each decision, alternately the oldest and the worst (default 1)", Check: integer(0, 1000)},
			{Name: "reuse", Doc: "b_reuse: decisions one probe may serve (default: 1 + δ/((1 − m/n)·r_probe − r_remove), 16 when not positive)", Check: integer(1, 1000)},
			{Name: "delta", Doc: "δ of the default reuse budget (default 1)", Check: number(func(x float64) bool { return x >= 0 && x <= 1e6 }, "in [0, 1e6]")},
			{Name: "q_rif", Doc: "Q_RIF: a probe whose RIF exceeds this quantile of the recent answers' is hot (default 0.84)", Check: number(func(x float64) bool { return x > 0 && x <= 1 }, "in (0, 1]")},
			{Name: "rif_history", Doc: "H: recent answers whose RIFs estimate the quantile (default 64)", Check: integer(1, 1<<16)},
			{Name: "latency_samples", Doc: "K: queries a tier's latency record keeps for each RIF value (default 16)", Check: integer(1, 1024)},
			{Name: "latency_window", Doc: "s: a recorded latency older than this does not count (default 1)", Check: positive("in (0, 1e6] (s)")},
		},
		construct: buildPrequal}
}

func buildRoundRobin(b Build) (dispatch.Policy, error) {
	n := len(b.Tiers)
	return lb.NewRoundRobin(n, lb.StartTier(b.Device, b.Devices, n)), nil
}

func buildWeightedRR(b Build) (dispatch.Policy, error) {
	w, err := tierWeights(b, "capacity")
	if err != nil {
		return nil, err
	}
	return lb.NewWeightedRoundRobin(w, lb.StartTier(b.Device, b.Devices, len(w))), nil
}

func buildLeastConn(b Build) (dispatch.Policy, error) {
	w, err := tierWeights(b, "equal")
	if err != nil {
		return nil, err
	}
	return lb.NewLeastConn(w), nil
}

func buildP2C(b Build) (dispatch.Policy, error) {
	w, err := tierWeights(b, "equal")
	if err != nil {
		return nil, err
	}
	draws := lb.DrawWeights
	switch b.options.String("draws", drawsWeights) {
	case drawsHAProxy:
		draws = lb.DrawHAProxy
	case drawsDistinct:
		draws = lb.DrawDistinct
	}
	return lb.NewP2C(w, b.options.Int("choices", 2), draws, b.Rand), nil
}

func buildLeastRequest(b Build) (dispatch.Policy, error) {
	w, err := tierWeights(b, "equal")
	if err != nil {
		return nil, err
	}
	return lb.NewLeastRequest(w, b.options.Int("choices", 2), b.options.Float("bias", 1), b.Rand), nil
}

func ewmaBuilder(peak bool) func(b Build) (dispatch.Policy, error) {
	return func(b Build) (dispatch.Policy, error) {
		return lb.NewEWMA(len(b.Tiers), peak, b.options.Float("decay", 10), b.options.Float("default_rtt", 0), b.Rand), nil
	}
}

func buildPrequal(b Build) (dispatch.Policy, error) {
	o, c := b.options, lb.DefaultPrequal()
	c.Probes, c.Pool, c.MaxAge = o.Int("probes", c.Probes), o.Int("pool", c.Pool), o.Float("max_age", c.MaxAge)
	c.Remove, c.Reuse, c.Delta = o.Int("remove", c.Remove), o.Int("reuse", c.Reuse), o.Float("delta", c.Delta)
	c.QRIF, c.History = o.Float("q_rif", c.QRIF), o.Int("rif_history", c.History)
	c.Samples, c.Window = o.Int("latency_samples", c.Samples), o.Float("latency_window", c.Window)
	return lb.NewPrequal(b.Tiers, c, b.Rand), nil
}
