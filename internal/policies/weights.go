package policies

import (
	"fmt"
	"math"

	"github.com/offload-sim/offload/internal/balancer"
	"github.com/offload-sim/offload/internal/dispatch"
)

// weightsOption is the weights option of the production balancers: equal
// (every tier 1), capacity (servers × speed) or a list, one positive
// number a tier. def names the policy's default.
func weightsOption(def string) option {
	return option{Name: "weights",
		Doc:   "equal (1 each), capacity (servers × speed) or a list of positive numbers, one a tier; made integers as the real balancers take them; default " + def,
		Check: checkWeights}
}

func checkWeights(v any) (any, error) {
	switch x := v.(type) {
	case string:
		if x == "equal" || x == "capacity" {
			return x, nil
		}
	case []any:
		out := make([]float64, len(x))
		for i, e := range x {
			var f float64
			switch n := e.(type) {
			case int:
				f = float64(n)
			case float64:
				f = n
			default:
				return nil, fmt.Errorf("weight %d: %s is not allowed: want a positive number", i+1, describeValue(e))
			}
			if !(f > 0) || math.IsInf(f, 0) {
				return nil, fmt.Errorf("weight %d: %s is out of range: must be a finite number > 0", i+1, fmtNum(f))
			}
			out[i] = f
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("an empty list is not allowed: want one weight a tier")
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s is not allowed: must be equal, capacity or a list of positive numbers (one a tier)", describeValue(v))
}

// tierWeights resolves the weights option of b (def when the entry omits
// it) into the integer weights the real balancers' configurations take
// (balancer.Weights): the same integers, so that a policy and the program
// it is compared with weigh the tiers alike.
func tierWeights(b Build, def string) ([]int, error) {
	raw := []float64(nil)
	switch w := b.options["weights"].(type) {
	case []float64:
		if len(w) != len(b.Tiers) {
			return nil, fmt.Errorf("option weights: %d values for %d tiers: give one a tier", len(w), len(b.Tiers))
		}
		raw = w
	case string:
		def = w
	}
	if raw == nil {
		raw = make([]float64, len(b.Tiers))
		for i, t := range b.Tiers {
			raw[i] = 1
			if def == "capacity" {
				raw[i] = capacity(t)
			}
		}
	}
	w, err := balancer.Weights(raw)
	if err != nil {
		return nil, fmt.Errorf("option weights: %w", err)
	}
	return w, nil
}

// EntryWeights is the integer weights an entry's policy gives the tiers
// (its weights option, else its default: capacity for
// weighted-round-robin, equal for the others), as the real balancers'
// configurations take them, so that a real balancer set beside the policy
// weighs the tiers alike.
func EntryWeights(e Entry, tiers []dispatch.Tier) ([]int, error) {
	b := Build{Tiers: tiers, options: values{}}
	if raw, ok := e.Options["weights"]; ok {
		v, err := checkWeights(raw)
		if err != nil {
			return nil, fmt.Errorf("policy %s: option weights: %w", e.Label, err)
		}
		b.options["weights"] = v
	}
	def := "equal"
	if e.Name == NameWeightedRR {
		def = "capacity"
	}
	return tierWeights(b, def)
}
