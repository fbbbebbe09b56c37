package stats

import (
	"fmt"
	"math"
)

// Batches is the batch-means analysis of one long run.
type Batches struct {
	K, Size int // batches, and observations in each
	// Skipped is n − K·Size: the leading observations that fill no batch,
	// left out so that each batch has the same size. They are taken at
	// the start, next to the warm-up, where any bias left is.
	Skipped int
	// Estimate is the mean of the batch means with its Student-t interval
	// on K − 1 degrees of freedom; N is K.
	Estimate
	// Lag1 is the lag-1 autocorrelation of the batch means,
	// r₁ = Σ_{j<K} (Z_j − Z̄)(Z_{j+1} − Z̄) / Σ_j (Z_j − Z̄)²:
	// near 0 when the batches are long enough to be nearly independent.
	Lag1 float64
	// C is Young's statistic, 1 − Σ_{j<K} (Z_j − Z_{j+1})² / (2·Σ_j (Z_j − Z̄)²),
	// which is r₁ plus ((Z₁ − Z̄)² + (Z_K − Z̄)²)/(2·Σ_j (Z_j − Z̄)²).
	C float64
	// Correlated: the von Neumann ratio test rejects independent batch
	// means at 5% (one-sided, against positive correlation): the batches
	// are too short, and the interval is too narrow. Make fewer, longer
	// batches, or a longer run.
	Correlated bool
}

// BatchMeans splits y (one run's observations after its warm-up) into k
// batches of ⌊n/k⌋ consecutive observations, dropping the n mod k leading
// ones, and returns the mean of the batch means with its Student-t
// interval on k − 1 degrees of freedom (Law & Kelton, Simulation Modeling
// and Analysis, §9.5.3; Schmeiser, "Batch size effects in the analysis of
// simulation output", Operations Research 30(3), 1982, who finds 10 to 30
// batches best), the lag-1 autocorrelation of the batch means and the von
// Neumann ratio test of their independence (von Neumann, Ann. Math.
// Statist. 12(4), 1941; in Young's form C, Ann. Math. Statist. 12(3),
// 1941; applied to batch means by Fishman, "Grouping observations in
// digital simulation", Management Science 24(5), 1978): under independent
// normal batch means C has mean 0 and variance (k − 2)/(k² − 1), close to
// normal, and the batches are flagged Correlated when
//
//	C > z_{0.95} · √((k − 2)/(k² − 1)),   z_{0.95} = 1.6449.
//
// The normal approximation is measured in the package's tests: at k = 8 to
// 30 the test rejects independent normal means at close to 5%. It reads y
// twice and allocates nothing. k must be at least 3 (an interval needs two
// batches, the test three) and at most n.
func BatchMeans(y []float64, k int) (Batches, error) {
	if k < 3 {
		return Batches{}, fmt.Errorf("--batches %d: at least 3 batches (the interval needs 2, the test of their independence 3; 10 to 30 are usual)", k)
	}
	if len(y) < k {
		return Batches{}, fmt.Errorf("--batches %d: more batches than the %d observations of the run", k, len(y))
	}
	b := Batches{K: k, Size: len(y) / k}
	b.Skipped = len(y) - k*b.Size
	y = y[b.Skipped:]
	batch := func(j int) float64 {
		var s float64
		for _, x := range y[j*b.Size : (j+1)*b.Size] {
			s += x
		}
		return s / float64(b.Size)
	}
	var sum float64
	for j := range k {
		sum += batch(j)
	}
	mean := sum / float64(k)
	var ss, lag, succ, prev float64
	for j := range k {
		z := batch(j) - mean
		ss += z * z
		if j > 0 {
			lag += prev * z
			succ += (z - prev) * (z - prev)
		}
		prev = z
	}
	sd := math.Sqrt(ss / float64(k-1))
	b.Estimate = Estimate{Center: mean, Half: TQuantile(k-1) * sd / math.Sqrt(float64(k)), N: k}
	b.Lower, b.Upper = mean-b.Half, mean+b.Half
	if ss == 0 { // every batch mean equal: no sign of correlation
		b.Lag1, b.C = 0, 0
		return b, nil
	}
	b.Lag1 = lag / ss
	b.C = 1 - succ/(2*ss)
	kf := float64(k)
	b.Correlated = b.C > 1.6448536269514722*math.Sqrt((kf-2)/(kf*kf-1))
	return b, nil
}
