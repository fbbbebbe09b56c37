package workload

import (
	"fmt"
	"math"
	"slices"
	"sort"
)

// empirical is the shared, read-only part of an empirical law: the values
// sorted, and the running sums of x and x² over them, so that every
// moment, partial moment and work quantile is a lookup.
type empirical struct {
	x      []float64 // sorted ascending
	s1, s2 []float64 // s1[i] = Σ_{j<i} x[j], s2 the same of x²; length n+1
	cs2    float64
}

// NewEmpirical is the empirical law of values (finite, ≥ 0, with a positive
// mean): each value with probability 1/n (docs/design.md §1.4). Sample draws one of them uniformly (a bootstrap
// of the column), and Mean, Cs2 (population variance over the squared mean),
// Quantile, CDF, PartialMoment and WorkQuantile are the sample's own, exactly:
// the laws the estimators and the size-interval rules read are the data's,
// not a fitted family's. The values are copied.
func NewEmpirical(values []float64) (Dist, error) {
	if len(values) == 0 {
		return Dist{}, fmt.Errorf("empirical: no values")
	}
	sum := 0.0
	for i, v := range values {
		if !(v >= 0) || math.IsInf(v, 0) {
			return Dist{}, fmt.Errorf("empirical: value %d is %v: every value must be finite and ≥ 0", i+1, v)
		}
		sum += v
	}
	if !(sum > 0) {
		return Dist{}, fmt.Errorf("empirical: every value is 0: the mean must be > 0")
	}
	x := slices.Clone(values)
	slices.Sort(x)
	e := &empirical{x: x, s1: make([]float64, len(x)+1), s2: make([]float64, len(x)+1)}
	for i, v := range x {
		e.s1[i+1] = e.s1[i] + v
		e.s2[i+1] = e.s2[i] + v*v
	}
	// The mean and C_s² by two passes in the values' own order, not from
	// the sorted running sums: the same bits as Trace.SizeMoments, and no
	// cancellation in E[X²]/E[X]² − 1 when the values barely vary.
	n := float64(len(x))
	mean := sum / n
	var v float64
	for _, y := range values {
		v += (y - mean) * (y - mean)
	}
	e.cs2 = v / n / (mean * mean)
	return Dist{kind: Empirical, mean: mean, emp: e}, nil
}

// Len is the number of values of an empirical law (0 for the other kinds).
func (d Dist) Len() int {
	if d.emp == nil {
		return 0
	}
	return len(d.emp.x)
}

// atOrBelow is the number of values ≤ x.
func (e *empirical) atOrBelow(x float64) int {
	return sort.Search(len(e.x), func(i int) bool { return e.x[i] > x })
}

// empQuantile is the smallest value with at least a share p of the values
// at or below it.
func (d Dist) empQuantile(p float64) float64 {
	x := d.emp.x
	i := int(math.Ceil(p*float64(len(x)))) - 1
	return x[min(max(i, 0), len(x)-1)]
}

func (d Dist) empCDF(x float64) float64 {
	return float64(d.emp.atOrBelow(x)) / float64(len(d.emp.x))
}

// empLower is E[X^k; X ≤ x].
func (d Dist) empLower(k int, x float64) float64 {
	i := d.emp.atOrBelow(x)
	return d.empSum(k, i) / float64(len(d.emp.x))
}

// empUpper is E[X^k; X > x], from the top of the running sums so that a
// far tail keeps its digits.
func (d Dist) empUpper(k int, x float64) float64 {
	i := d.emp.atOrBelow(x)
	n := len(d.emp.x)
	return (d.empSum(k, n) - d.empSum(k, i)) / float64(n)
}

// empSum is the sum of x^k over the i smallest values.
func (d Dist) empSum(k, i int) float64 {
	switch k {
	case 0:
		return float64(i)
	case 1:
		return d.emp.s1[i]
	}
	return d.emp.s2[i]
}

func (d Dist) empCs2() float64 { return d.emp.cs2 }

// empWorkQuantile is the smallest value x with E[X; X ≤ x] ≥ w·E[X]: the
// work of the sample is in steps, one per value.
func (d Dist) empWorkQuantile(w float64) float64 {
	e := d.emp
	n := len(e.x)
	target := w * e.s1[n]
	i := sort.Search(n, func(i int) bool { return e.s1[i+1] >= target })
	return e.x[min(i, n-1)]
}
