package chart

import (
	"errors"
	"image/color"
	"slices"
	"testing"

	"github.com/offload-sim/offload/internal/results"
)

// Panels: a chart without a point is left out with its width, an entry two
// charts share is listed once, and nothing to draw is ErrNoData.
func TestPanels(t *testing.T) {
	line := func(label string, ys ...float64) Series {
		s := Series{Label: label}
		for i, y := range ys {
			s.Points = append(s.Points, Point{X: float64(i), Y: y, Low: 0.1, High: 0.1})
		}
		return s
	}
	shade := []results.Interval{{Start: 1, End: 2}}
	ps := Panels{Title: "t", Widths: []float64{2, 1, 1}, Charts: []Chart{
		{Legend: testLegend, Series: []Series{line("hybrid", 1, 2, 3), line("jsq", 2, 3, 4)}, Shade: shade},
		{Legend: testLegend, Series: []Series{{Label: "oracle"}}},
		{Legend: testLegend, Series: []Series{line("random", 5, 6, 7), line("jsq", 1, 1, 1)}, Shade: shade},
	}, Extra: []LegendItem{{Text: "band", Fill: color.Gray{Y: 200}}}}
	panels, entries, err := ps.plots()
	if err != nil {
		t.Fatal(err)
	}
	if len(panels) != 2 || panels[1].width != 1 {
		t.Errorf("%d panels, the second of width %g: want 2, the empty one left out with its width", len(panels), panels[1].width)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Text)
	}
	if want := []string{burstLegend, "hybrid", "jsq", "random"}; !slices.Equal(names, want) {
		t.Errorf("legend %q, want %q", names, want)
	}
	m := memFolder{}
	if err := ps.Save(m, "p", "png"); err != nil || len(m["p.png"]) == 0 {
		t.Fatalf("save: %v", err)
	}
	ps.Columns = 1 // a grid of two rows
	if err := ps.Save(m, "g", "png"); err != nil || len(m["g.png"]) == 0 {
		t.Fatalf("save a grid: %v", err)
	}
	if err := (Panels{Charts: []Chart{{Series: []Series{{Label: "x"}}}}}).Save(m, "n", "png"); !errors.Is(err, ErrNoData) {
		t.Errorf("no point: %v, want ErrNoData", err)
	}
}
