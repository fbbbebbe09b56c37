package report

import (
	"bytes"
	"errors"
	"math"
	"testing"
)

// The front's series: one per label in legend order, each sorted by energy
// with its bars and tags moved along, points missing a coordinate left out.
func TestFrontSeries(t *testing.T) {
	legend := Legend{Labels: []string{"hybrid", "hybrid-energy"}, Policies: []string{"hybrid", "hybrid-energy"}}
	pts := []FrontPoint{
		{Label: "hybrid-energy", Energy: 0.9, EnergyCI: 0.01, Latency: 0.05, LatencyCI: 0.001, Tag: "w=0.1"},
		{Label: "hybrid-energy", Energy: 0.7, EnergyCI: 0.02, Latency: 0.09, LatencyCI: 0.002, Tag: "w=0.3"},
		{Label: "hybrid-energy", Energy: math.NaN(), Latency: 0.1},
		{Label: "hybrid", Energy: 0.97, EnergyCI: math.NaN(), Latency: 0.05, LatencyCI: 0.001},
	}
	fs := frontSeriesOf(pts, legend)
	if len(fs) != 2 || fs[0].Name != "hybrid" || fs[1].Name != "hybrid-energy" {
		t.Fatalf("series %+v: want hybrid, then hybrid-energy", fs)
	}
	he := fs[1]
	if len(he.XYs) != 2 || he.XYs[0].X != 0.7 || he.XErr[0].Low != 0.02 || he.Err[0].High != 0.002 || he.Tags[0] != "w=0.3" || he.Tags[1] != "w=0.1" {
		t.Errorf("hybrid-energy series %+v: want sorted by energy, bars and tags with their points", he)
	}
	if fs[0].XErr[0].Low != 0 {
		t.Errorf("a missing interval draws no bar, got %+v", fs[0].XErr)
	}
	m := memFolder{}
	if err := PlotFront(m, "front", "png", pts, legend, FigureOptions{Title: "t", XLabel: "J", YLabel: "s"}); err != nil {
		t.Fatal(err)
	}
	if png := m["front.png"]; !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("front.png is not a PNG (%d bytes)", len(png))
	}
	if err := PlotFront(m, "none", "png", nil, legend, FigureOptions{}); !errors.Is(err, ErrNoData) {
		t.Errorf("no points: %v, want ErrNoData", err)
	}
}
