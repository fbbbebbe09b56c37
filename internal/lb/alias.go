package lb

// AliasTable is Vose's alias table of the probabilities p (summing to 1
// up to rounding): column i gives tier i with probability prob[i] and
// alias[i] otherwise, so that a column drawn uniformly gives tier i with
// probability p[i]. A tier of probability 0 is never given: its column
// always gives its alias, and a column that rounding leaves without a
// partner keeps its own tier only if that tier's probability is positive.
// p2c's weighted draws use it, and so does static-opt's split.
func AliasTable(p []float64) (prob []float64, alias []int32) {
	n := len(p)
	prob, alias = make([]float64, n), make([]int32, n)
	q := make([]float64, n)
	var small, large []int32
	last := int32(0) // a tier of positive probability
	for i, x := range p {
		q[i] = x * float64(n)
		if x > 0 {
			last = int32(i)
		}
		if q[i] < 1 {
			small = append(small, int32(i))
		} else {
			large = append(large, int32(i))
		}
	}
	for len(small) > 0 && len(large) > 0 {
		l, g := small[len(small)-1], large[len(large)-1]
		small = small[:len(small)-1]
		prob[l], alias[l] = q[l], g
		q[g] = (q[g] + q[l]) - 1 // Vose's order of the sum, which loses least
		if q[g] < 1 {
			large = large[:len(large)-1]
			small = append(small, g)
		}
	}
	for _, g := range large {
		prob[g], alias[g] = 1, g
	}
	for _, l := range small { // left by rounding: about 1 each
		prob[l], alias[l] = 1, l
		if p[l] <= 0 {
			prob[l], alias[l] = 0, last
		}
	}
	return prob, alias
}
