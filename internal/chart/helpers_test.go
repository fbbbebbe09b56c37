package chart

import (
	"bytes"
	"flag"
	"io"
	"math"
)

var allPolicies = []string{"hybrid", "model-only", "queue-only", "jsq", "jsq-s", "edge-first", "random", "oracle"}

// testLegend is the paper's eight in registry order.
var testLegend = Legend{Labels: allPolicies, Policies: allPolicies}

// -update rewrites golden files where a package has them; this one has
// none, but every package with tests takes the flag.
var _ = flag.Bool("update", false, "rewrite golden files (this package has none)")

// memFolder is a Folder in memory.
type memFolder map[string][]byte

func (m memFolder) WriteFile(name string, write func(io.Writer) error) error {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	m[name] = b.Bytes()
	return nil
}

// sweepLines fakes a sweep-load figure's lines: latency rising with the
// rate, each policy at its own level, edge-first saturating (unstable) at
// the two highest rates, and wide intervals at high load.
func sweepLines() []Series {
	rates := []float64{10, 20, 40, 60, 80, 100, 120, 150, 200}
	var out []Series
	for pi, pol := range allPolicies {
		s := Series{Label: pol}
		for _, r := range rates {
			mean := 0.05 * (1 + 0.15*float64(pi)) / (1 - r/(230+10*float64(pi)))
			unstable := pol == "edge-first" && r >= 150
			if unstable {
				mean *= 20
			}
			ci := 0.05 * mean * r / 100
			s.Points = append(s.Points, Point{X: r, Y: mean, Low: ci, High: ci, Unstable: unstable})
		}
		out = append(out, s)
	}
	return out
}

func scalarClose(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
