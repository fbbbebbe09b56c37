package report

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/results"
)

// A share figure of more tiers than it has colours draws the eight with
// the largest shares in tier order and the rest as one band, "other",
// unstable where any of them is; its bands still add up to 1, and it is
// written (a hundred tiers refused the figure, and the sweep exited 1).
func TestSharesFoldManyTiers(t *testing.T) {
	const k = 100
	var tiers []string
	for i := range k {
		tiers = append(tiers, fmt.Sprintf("t%d", i))
	}
	cols := results.RunColumns(results.Layout{Tiers: tiers})
	var sums []results.Summary
	for _, x := range []float64{10, 20} {
		s := results.Summary{Policy: "jsq", Value: x, Runs: 1, Cols: cols, Mean: results.NaNs(len(cols)), CI95: results.NaNs(len(cols))}
		for i, name := range tiers {
			share := 0.5 / (k - 9) // the big ones: tiers 90 … 97, 98 at x = 10, 5 at x = 20
			switch {
			case i >= 90 && i < 98:
				share = 0.5 / 9
			case i == 98 && x == 10, i == 5 && x == 20:
				share = 0.5 / 9
			}
			s.Mean[results.Index(cols, results.ShareCol(name))] = share
			s.Mean[results.Index(cols, results.UtilCol(name))] = 0.5
		}
		if x == 20 { // t3 overloaded: the cell is unstable
			s.Mean[results.Index(cols, results.UtilCol("t3"))] = 1.5
			s.Unstable = true
		}
		sums = append(sums, s)
	}
	if note := SharesNote(tiers); !strings.Contains(note, "100 tiers") || !strings.Contains(note, "the other 92 as one band") {
		t.Errorf("note %q", note)
	}
	if SharesNote(tiers[:9]) != "" {
		t.Error("nine tiers have a colour each, yet a note")
	}
	panels, names := foldTiers(shareSeries(sums, chart.Legend{Labels: []string{"jsq"}, Policies: []string{"jsq"}}, tiers, false), tiers)
	// Tiers 5 and 90 … 98 all peak at 1/18; ties go in tier order.
	want := []string{"t5", "t90", "t91", "t92", "t93", "t94", "t95", "t96", "other (92 tiers)"}
	if !slices.Equal(names, want) {
		t.Fatalf("bands %v, want %v", names, want)
	}
	p := panels[0]
	for i := range p.X {
		sum := 0.0
		for b := range names {
			sum += p.Share[b][i]
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("x=%g: bands add up to %v", p.X[i], sum)
		}
		if got := p.Unstable[len(names)-1][i]; got != (p.X[i] == 20) {
			t.Errorf("x=%g: other unstable %v", p.X[i], got)
		}
	}
	dir := memFolder{}
	if err := PlotShares(dir, "shares", "png", sums, chart.Legend{Labels: []string{"jsq"}, Policies: []string{"jsq"}}, tiers, chart.FigureOptions{}); err != nil || len(dir["shares.png"]) == 0 {
		t.Errorf("PlotShares: %v, %d bytes", err, len(dir["shares.png"]))
	}
}
