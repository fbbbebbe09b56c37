package estimators

import "fmt"

// Squared coefficients of variation C_s² = Var[S]/E[S]² of the size
// distributions that have no parameter besides their mean. The service time
// at a tier is size/speed, so it has the size's C_s².
const (
	ExponentialCs2   = 1.0 // exponential sizes: Var = mean²
	DeterministicCs2 = 0.0 // constant sizes
)

// ParetoCs2 is C_s² of a Pareto size distribution with shape alpha:
//
//	C_s² = 1 / (α(α − 2))
//
// whatever the scale (0.8 at α = 2.5). From E[X²] = α x_m²/(α−2) and
// E[X] = α x_m/(α−1). For α ≤ 2 the variance is infinite and ParetoCs2
// returns an error that says so.
func ParetoCs2(alpha float64) (float64, error) {
	if !(alpha > 2) {
		return 0, fmt.Errorf("pareto alpha %g: the variance is infinite for alpha ≤ 2 (need alpha > 2)", alpha)
	}
	return 1 / (alpha * (alpha - 2)), nil
}

// LognormalCs2 is C_s² of a lognormal size distribution given by its
// coefficient of variation cv: by definition C_s² = cv².
func LognormalCs2(cv float64) float64 { return cv * cv }
