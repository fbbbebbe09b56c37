package workload

import (
	"fmt"
	"math"
)

// NewBoundedPareto is the Pareto of shape alpha > 0 truncated to [low, high]
// (0 < low < high): density α·L^α·x^(−α−1)/(1 − (L/H)^α) on [L, H]. Every
// moment is finite, so alpha may be ≤ 2, and the mean and C_s² follow from
// the three parameters (BPMoment).
func NewBoundedPareto(alpha, low, high float64) (Dist, error) {
	fin := func(x float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) }
	if !(alpha > 0) || !fin(alpha) {
		return Dist{}, fmt.Errorf("bounded-pareto alpha %v: must be finite and > 0", alpha)
	}
	if !(low > 0 && high > low) || !fin(high) {
		return Dist{}, fmt.Errorf("bounded-pareto low %v, high %v: need 0 < low < high, finite", low, high)
	}
	d := Dist{kind: BoundedPareto, alpha: alpha, invAlpha: 1 / alpha, xm: low, hi: high}
	d.mean = BPMoment(1, alpha, low, high)
	return d, nil
}

// BPMoment is E[X^k] of the bounded Pareto (α, L, H), exactly:
//
//	α·L^α·(H^(k−α) − L^(k−α)) / ((k−α)·(1 − (L/H)^α))   for k ≠ α,
//	α·L^α·ln(H/L) / (1 − (L/H)^α)                        for k = α,
//
// written as α·L^k·expm1((k−α)ℓ)/((k−α)·(−expm1(−αℓ))) with ℓ = ln(H/L), so
// that neither difference loses its digits, and with the limit's series
// when (k−α)ℓ is too small for the quotient.
func BPMoment(k, alpha, low, high float64) float64 {
	l := math.Log(high / low)
	return alpha * math.Pow(low, k) * expm1Ratio(k-alpha, l) / -math.Expm1(-alpha*l)
}

// expm1Ratio is (e^(z·l) − 1)/z, and its limit l at z = 0.
func expm1Ratio(z, l float64) float64 {
	if zl := z * l; math.Abs(zl) < 1e-5 {
		return l * (1 + zl/2 + zl*zl/6 + zl*zl*zl/24)
	}
	return math.Expm1(z*l) / z
}

// bpLower is E[X^k; X ≤ x] of a bounded Pareto: BPMoment's formula with H
// replaced by x (and the normaliser kept).
func (d Dist) bpLower(k int, x float64) float64 {
	switch {
	case x <= d.xm:
		return 0
	case x >= d.hi:
		return BPMoment(float64(k), d.alpha, d.xm, d.hi)
	}
	kf := float64(k)
	return d.alpha * math.Pow(d.xm, kf) * expm1Ratio(kf-d.alpha, math.Log(x/d.xm)) / -math.Expm1(-d.alpha*math.Log(d.hi/d.xm))
}

// bpUpper is E[X^k; X > x]: ∫_x^H, the same formula from x up, scaled
// from x^k rather than L^k so that a far tail keeps its digits.
func (d Dist) bpUpper(k int, x float64) float64 {
	switch {
	case x <= d.xm:
		return BPMoment(float64(k), d.alpha, d.xm, d.hi)
	case x >= d.hi:
		return 0
	}
	kf := float64(k)
	// α·L^α·x^(k−α)·(e^((k−α)ln(H/x)) − 1)/(k−α), over the normaliser.
	return d.alpha * math.Pow(d.xm/x, d.alpha) * math.Pow(x, kf) * expm1Ratio(kf-d.alpha, math.Log(d.hi/x)) / -math.Expm1(-d.alpha*math.Log(d.hi/d.xm))
}

// bpQuantile inverts F(x) = (1 − (L/x)^α)/(1 − (L/H)^α):
// x = L·(1 − p·(1 − (L/H)^α))^(−1/α).
func (d Dist) bpQuantile(p float64) float64 {
	norm := -math.Expm1(-d.alpha * math.Log(d.hi/d.xm))
	return math.Min(d.hi, d.xm*math.Pow(1-p*norm, -d.invAlpha))
}

// bpCDF is F(x).
func (d Dist) bpCDF(x float64) float64 {
	switch {
	case x <= d.xm:
		return 0
	case x >= d.hi:
		return 1
	}
	return -math.Expm1(-d.alpha*math.Log(x/d.xm)) / -math.Expm1(-d.alpha*math.Log(d.hi/d.xm))
}

// bpCs2 is E[X²]/E[X]² − 1 from the closed-form moments.
func (d Dist) bpCs2() float64 {
	m1 := d.mean
	return BPMoment(2, d.alpha, d.xm, d.hi)/(m1*m1) - 1
}

// bpWorkQuantile solves E[X; X ≤ x] = w·E[X] in closed form: x^(1−α) is the
// w-mix of L^(1−α) and H^(1−α) (x = L·(H/L)^w at α = 1).
func (d Dist) bpWorkQuantile(w float64) float64 {
	l := math.Log(d.hi / d.xm)
	z := 1 - d.alpha
	// ln(x/L) = ln(1 + w·expm1(z·l))/z, and w·l at z = 0.
	if math.Abs(z*l) < 1e-9 {
		return d.xm * math.Exp(w*l)
	}
	return math.Min(d.hi, d.xm*math.Exp(math.Log1p(w*math.Expm1(z*l))/z))
}

// High is the bounded Pareto's upper bound (0 for the other families); its
// lower bound is the scale, Low.
func (d Dist) High() float64 { return d.hi }

// Low is the bounded Pareto's lower bound (0 for the other families).
func (d Dist) Low() float64 {
	if d.kind == BoundedPareto {
		return d.xm
	}
	return 0
}
