package stats

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// TestPairedTAgainstStudentsSleepData: R's t.test(extra ~ group, data =
// sleep, paired = TRUE) gives t = −4.0621, df = 9, p = 0.002833 for drug
// 1 − drug 2.
func TestPairedTAgainstStudentsSleepData(t *testing.T) {
	drug1 := []float64{0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0}
	drug2 := []float64{1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4}
	p := PairedT(drug1, drug2)
	if p.N != 10 || !near(p.Center, -1.58, 1e-12) || !near(p.T, -4.0621, 2e-5) || !near(p.P, 0.002833, 2e-4) {
		t.Errorf("sleep data: %+v, want mean −1.58, t −4.0621, p 0.002833", p)
	}
	// Skipping: a missing side drops the pair, as results.PairedDiff does.
	q := PairedT(append(drug1, math.NaN(), 3), append(drug2, 1, math.Inf(1)))
	if q.N != 10 || q.T != p.T || q.P != p.P {
		t.Errorf("with two half-missing pairs: %+v, want the same test as without", q)
	}
}

// TestPValueAgreesWithTheInterval: P ≤ 0.05 exactly when the 95% interval
// excludes 0, and at |t| = t_{n−1, 0.975} the p-value is 0.05.
func TestPValueAgreesWithTheInterval(t *testing.T) {
	for run := range 300 {
		a := normals(40, run, 12, 0.3*float64(run%5), 1)
		b := normals(41, run, 12, 0, 1)
		p := PairedT(a, b)
		excludes := !p.Covers(0)
		if (p.P <= Alpha) != excludes && math.Abs(p.P-Alpha) > 1e-9 {
			t.Errorf("run %d: p = %v but the interval [%v, %v] excludes 0: %v", run, p.P, p.Lower, p.Upper, excludes)
		}
	}
	// Differences whose t is exactly t_{9, 0.975}: mean t·s/√10 with s = 1.
	d := []float64{-1, 1, -1, 1, -1, 1, -1, 1, -1, 1} // mean 0, s = √(10/9)
	s := math.Sqrt(10.0 / 9)
	shift := TQuantile(9) * s / math.Sqrt(10)
	for i := range d {
		d[i] += shift
	}
	if p := PairedT(d, make([]float64, 10)); !near(p.P, 0.05, 1e-9) {
		t.Errorf("t at the 0.975 quantile: p = %v, want 0.05", p.P)
	}
}

func TestPairedTDegenerate(t *testing.T) {
	for _, c := range []struct {
		name    string
		a, b    []float64
		wantT   float64
		wantP   float64
		wantNaN bool
	}{
		{"identical", []float64{1, 2, 3}, []float64{1, 2, 3}, 0, 1, false},
		{"a constant shift", []float64{2, 3, 4}, []float64{1, 2, 3}, math.Inf(1), 0, false},
		{"one pair", []float64{2}, []float64{1}, 0, 0, true},
	} {
		p := PairedT(c.a, c.b)
		if c.wantNaN {
			if !math.IsNaN(p.T) || !math.IsNaN(p.P) {
				t.Errorf("%s: t %v, p %v, want NaN", c.name, p.T, p.P)
			}
			continue
		}
		if p.T != c.wantT || p.P != c.wantP {
			t.Errorf("%s: t %v, p %v, want %v and %v", c.name, p.T, p.P, c.wantT, c.wantP)
		}
	}
}

// TestHolmByHand: p = (0.01, 0.04, 0.03, 0.005), m = 4. Sorted 0.005,
// 0.01, 0.03, 0.04 take 4·0.005 = 0.02, 3·0.01 = 0.03, 2·0.03 = 0.06 and
// max(0.06, 1·0.04) = 0.06: at 5% the first two are rejected. A NaN stays
// out of the family; ties keep their order; nothing exceeds 1.
func TestHolmByHand(t *testing.T) {
	for _, c := range []struct {
		p, want []float64
	}{
		{[]float64{0.01, 0.04, 0.03, 0.005}, []float64{0.03, 0.06, 0.06, 0.02}},
		{[]float64{0.01, math.NaN(), 0.04, 0.03, 0.005}, []float64{0.03, math.NaN(), 0.06, 0.06, 0.02}},
		{[]float64{0.02, 0.02, 0.02}, []float64{0.06, 0.06, 0.06}},
		{[]float64{0.5, 0.3, 0.001}, []float64{0.6, 0.6, 0.003}},
		{[]float64{0.9}, []float64{0.9}},
		{nil, []float64{}},
	} {
		got := Holm(c.p)
		if len(got) != len(c.want) {
			t.Fatalf("Holm(%v) = %v, want %v", c.p, got, c.want)
		}
		for i := range got {
			if !(near(got[i], c.want[i], 1e-15) || math.IsNaN(got[i]) && math.IsNaN(c.want[i])) {
				t.Errorf("Holm(%v) = %v, want %v", c.p, got, c.want)
				break
			}
		}
	}
}

// holmClosed is Holm's procedure as the closed testing of Bonferroni tests
// it is (Marcus, Peritz & Gabriel, Biometrika 63(3), 1976; Holm 1979): the
// adjusted p of H_i is the largest, over the subsets S of the family that
// contain i, of min(1, |S|·min_{j∈S} p_j). By brute force over subsets.
func holmClosed(p []float64) []float64 {
	m := len(p)
	adj := make([]float64, m)
	for set := 1; set < 1<<m; set++ {
		size, low := 0, math.Inf(1)
		for j := range m {
			if set&(1<<j) != 0 {
				size++
				low = min(low, p[j])
			}
		}
		local := min(1, float64(size)*low)
		for j := range m {
			if set&(1<<j) != 0 {
				adj[j] = max(adj[j], local)
			}
		}
	}
	return adj
}

// TestHolmProperties: on random families of up to 10 p-values, the
// adjusted values equal the closed-testing ones, are never below the raw
// ones, never above 1, monotone in the raw order, and the smallest is
// Bonferroni's min(1, m·p₍₁₎).
func TestHolmProperties(t *testing.T) {
	for run := range 500 {
		r := rng(42, run, 0)
		m := 1 + run%10
		p := make([]float64, m)
		for i := range p {
			p[i] = math.Pow(r.Float64(), 3) // many small ones
			if run%7 == 0 && i > 0 {
				p[i] = p[i-1] // ties
			}
		}
		adj := Holm(p)
		closed := holmClosed(p)
		order := make([]int, m)
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int {
			if p[a] < p[b] {
				return -1
			} else if p[a] > p[b] {
				return 1
			}
			return 0
		})
		for i := range p {
			if !near(adj[i], closed[i], 1e-12) || adj[i] < p[i] || adj[i] > 1 {
				t.Fatalf("run %d: p %v: Holm %v, closed testing %v", run, p, adj, closed)
			}
		}
		for k := 1; k < m; k++ {
			if adj[order[k]] < adj[order[k-1]] {
				t.Fatalf("run %d: adjusted %v not monotone in the raw order %v", run, adj, p)
			}
		}
		if first := order[0]; adj[first] != min(1, float64(m)*p[first]) {
			t.Fatalf("run %d: smallest adjusted %v, Bonferroni %v", run, adj[first], float64(m)*p[first])
		}
	}
}

// TestHolmControlsTheFamilyWiseError: six policies with no difference
// (15 pairs), 1,000 cells of 10 replicates sharing a common component as
// common random numbers do. Unadjusted, some pair is called significant in
// far more than 5% of the cells; with Holm in at most 5%, up to 4
// binomial standard deviations (0.028).
func TestHolmControlsTheFamilyWiseError(t *testing.T) {
	study(t)
	const cells, pols, reps = 1000, 6, 10
	rawAny, holmAny := 0, 0
	values := make([][]float64, pols)
	for cell := range cells {
		r := rng(43, cell, 0)
		common := make([]float64, reps)
		for i := range common {
			common[i] = 10 + 2*r.NormFloat64()
		}
		for p := range values {
			values[p] = make([]float64, reps)
			for i := range values[p] {
				values[p][i] = common[i] + r.NormFloat64()
			}
		}
		c := Compare(values, Lower)
		if slices.ContainsFunc(c.Pairs, func(p Pair) bool { return p.P <= Alpha }) {
			rawAny++
		}
		if slices.ContainsFunc(c.Pairs, func(p Pair) bool { return p.Significant }) {
			holmAny++
		}
	}
	raw, holm := float64(rawAny)/cells, float64(holmAny)/cells
	t.Logf("some pair significant: %.3f unadjusted, %.3f with Holm", raw, holm)
	if raw < 0.2 || holm > 0.05+4*math.Sqrt(0.05*0.95/cells) {
		t.Errorf("family-wise error %.3f unadjusted, %.3f with Holm; want well above 0.05 and at most 0.05", raw, holm)
	}
}

// TestCompareRanks: five policies on 20 common replicates. a and b are
// equal in law: rank 1; c is 10% slower, significantly slower than a and
// b: rank 2; d is 30% slower than a and b, significantly slower than c:
// rank 3; e is c with so much noise of its own that no policy is
// separated from it: rank 1, level with a and b although its mean is
// above c's (two ranks apart is not a significant difference). The ranks
// must obey the two rules: a significant difference separates ranks in
// its direction, and equal ranks are never significantly different.
func TestCompareRanks(t *testing.T) {
	const reps = 20
	r := rng(44, 0, 0)
	base := make([]float64, reps)
	for i := range base {
		base[i] = 10 + 3*r.NormFloat64()
	}
	vary := func(scale, noise float64) []float64 {
		xs := make([]float64, reps)
		for i := range xs {
			xs[i] = scale*base[i] + noise*r.NormFloat64()
		}
		return xs
	}
	values := [][]float64{vary(1, 0.2), vary(1, 0.2), vary(1.1, 0.2), vary(1.3, 0.2), vary(1.1, 6)}
	c := Compare(values, Lower)
	want := []int{1, 1, 2, 3, 1}
	if !slices.Equal(c.Rank, want) {
		t.Errorf("ranks %v, want %v; pairs:\n%s", c.Rank, want, pairsTable(c))
	}
	checkRankRules(t, c)
	// The same cell as throughput: the order reverses.
	up := Compare(values, Higher)
	if wantUp := []int{3, 3, 2, 1, 1}; !slices.Equal(up.Rank, wantUp) {
		t.Errorf("higher is better: ranks %v, want %v", up.Rank, wantUp)
	}
	checkRankRules(t, up)
}

func pairsTable(c Comparison) string {
	s := ""
	for _, p := range c.Pairs {
		s += fmt.Sprintf("  %d−%d: %+.3f ± %.3f, p %.4g, Holm %.4g, significant %v\n", p.A, p.B, p.Center, p.Half, p.P, p.PHolm, p.Significant)
	}
	return s
}

// checkRankRules: significant ⇒ the better mean has the smaller rank;
// equal ranks ⇒ not significant.
func checkRankRules(t *testing.T, c Comparison) {
	t.Helper()
	for _, p := range c.Pairs {
		if p.Significant {
			better, worse := p.A, p.B
			if c.Rank[p.B] < c.Rank[p.A] {
				better, worse = p.B, p.A
			}
			if c.Rank[better] == c.Rank[worse] {
				t.Errorf("pair %d−%d significant but both rank %d", p.A, p.B, c.Rank[better])
			}
		}
	}
}

// TestCompareRankRulesOnRandomCells: on random cells the ranks obey the
// rules and the better side of a significant pair has the better mean.
func TestCompareRankRulesOnRandomCells(t *testing.T) {
	for cell := range 300 {
		r := rng(45, cell, 0)
		pols, reps := 2+cell%6, 5+cell%20
		values := make([][]float64, pols)
		for p := range values {
			shift := 0.3 * float64(r.IntN(4))
			values[p] = make([]float64, reps)
			for i := range values[p] {
				values[p][i] = 5 + shift + 0.5*r.NormFloat64()
			}
		}
		c := Compare(values, Lower)
		checkRankRules(t, c)
		for _, p := range c.Pairs {
			if p.Significant && (c.Means[p.A] < c.Means[p.B]) != (c.Rank[p.A] < c.Rank[p.B]) {
				t.Errorf("cell %d: pair %d−%d significant, means %v and %v, ranks %d and %d", cell, p.A, p.B, c.Means[p.A], c.Means[p.B], c.Rank[p.A], c.Rank[p.B])
			}
		}
	}
}

// TestCompareUsesCommonReplicates: a replicate missing for one policy is
// left out of every pair, and the pairs are in the order (0,1), (0,2), (1,2).
func TestCompareUsesCommonReplicates(t *testing.T) {
	a := []float64{1, 2, 3, 4, math.NaN()}
	b := []float64{2, 3, 5, 4, 100}
	c := []float64{1, 1, 1, 1, 1}
	cmp := Compare([][]float64{a, b, c}, Lower)
	if cmp.Replicates != 4 || cmp.Means[1] != 3.5 {
		t.Errorf("replicates %d, mean of b %v, want 4 and 3.5 (the fifth left out)", cmp.Replicates, cmp.Means[1])
	}
	for k, want := range [][2]int{{0, 1}, {0, 2}, {1, 2}} {
		p := cmp.Pairs[k]
		if p.A != want[0] || p.B != want[1] || p.N != 4 {
			t.Errorf("pair %d is %d−%d over %d, want %d−%d over 4", k, p.A, p.B, p.N, want[0], want[1])
		}
	}
	if want := PairedT(b[:4], c[:4]); cmp.Pairs[2].Paired != want {
		t.Errorf("pair 1−2 %+v, want PairedT's %+v", cmp.Pairs[2].Paired, want)
	}
}

func ExampleCompare() {
	// Mean latencies of three policies over the same eight replicates.
	values := [][]float64{
		{1.00, 1.10, 0.95, 1.20, 1.05, 0.90, 1.15, 1.00}, // jsq
		{1.03, 1.08, 0.97, 1.19, 1.04, 0.93, 1.13, 1.02}, // hybrid
		{1.40, 1.52, 1.31, 1.66, 1.45, 1.27, 1.58, 1.39}, // random
	}
	c := Compare(values, Lower)
	for _, p := range c.Pairs {
		fmt.Printf("%d−%d: %+.3f, Holm p %.2g, significant %v\n", p.A, p.B, p.Center, p.PHolm, p.Significant)
	}
	fmt.Println("ranks", c.Rank)
	// Output:
	// 0−1: -0.005, Holm p 0.54, significant false
	// 0−2: -0.404, Holm p 1.2e-08, significant true
	// 1−2: -0.399, Holm p 1.9e-07, significant true
	// ranks [1 1 2]
}

// TestRanksUseTheAdjustedPValues: four policies on 10 replicates. b is a
// plus 0.833 ± 1 (t = 2.50 on 9 degrees of freedom, raw p = 0.034), c and
// d are 20 above both, 0.1 apart from each other with a spread of 2.
// Sorted, the four far pairs come first; a−b is fifth of six, so Holm
// multiplies its p by 2: 0.068, not significant. So a and b share rank 1,
// c and d rank 2; on raw p-values b would rank 2 and c, d 3.
func TestRanksUseTheAdjustedPValues(t *testing.T) {
	const n = 10
	a, b, c, d := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		sign := float64(1 - 2*(i%2))
		a[i] = 10 + float64(i%3)
		b[i] = a[i] + 0.833 + sign
		c[i] = a[i] + 20 + 0.1*float64(i%4)
		d[i] = c[i] + 0.1 + 2*sign
	}
	cmp := Compare([][]float64{a, b, c, d}, Lower)
	ab := cmp.Pairs[0]
	if !(ab.P < Alpha) || ab.Significant || !near(ab.PHolm, 2*ab.P, 1e-12) {
		t.Fatalf("a−b: raw p %v, Holm %v, significant %v; want raw below 0.05, Holm twice it and not significant", ab.P, ab.PHolm, ab.Significant)
	}
	if want := []int{1, 1, 2, 2}; !slices.Equal(cmp.Rank, want) {
		t.Errorf("ranks %v, want %v; pairs:\n%s", cmp.Rank, want, pairsTable(cmp))
	}
}
