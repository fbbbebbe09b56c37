package stats

import "testing"

// A run's series of 100,000 latencies: MSER-5 and batch means read it in
// place and allocate nothing.
func benchSeries() []float64 {
	y := make([]float64, 100000)
	lindley(rng(60, 0, 0), 0.8, exponential, 0, y, true)
	return y
}

func BenchmarkMSER5(b *testing.B) {
	y := benchSeries()
	b.ReportAllocs()
	for b.Loop() {
		MSER5(y)
	}
	b.ReportMetric(float64(len(y))*float64(b.N)/b.Elapsed().Seconds(), "values/s")
}

func BenchmarkBatchMeans(b *testing.B) {
	y := benchSeries()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := BatchMeans(y, 20); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(y))*float64(b.N)/b.Elapsed().Seconds(), "values/s")
}

// A cell of 8 policies and 50 replicates: one look of the rule, and the
// comparison of its 28 pairs.
func benchCell(on Statistic) [][]float64 {
	values := make([][]float64, 8)
	for p := range values {
		values[p] = normals(61, p, 50, 10+float64(p), 2)
	}
	return values
}

func BenchmarkDecide(b *testing.B) {
	for _, on := range []Statistic{Mean, Median} {
		b.Run(on.String(), func(b *testing.B) {
			values := benchCell(on)
			rule := Rule{Target: 0.001, Min: 10, Max: 100000, On: on}
			b.ReportAllocs()
			for b.Loop() {
				rule.Decide(values)
			}
		})
	}
}

func BenchmarkCompare(b *testing.B) {
	values := benchCell(Mean)
	b.ReportAllocs()
	for b.Loop() {
		Compare(values, Lower)
	}
}
