package analysis

import (
	"bytes"
	"errors"
	"io"
	"math"
	"testing"

	"github.com/offload-sim/offload/internal/chart"
)

func TestDominated(t *testing.T) {
	pts := []frontPoint{{Energy: 1, Latency: 1}, {Energy: 2, Latency: 2}, {Energy: 0.5, Latency: 3}, {Energy: 1, Latency: 1}}
	got := dominated(pts)
	want := []bool{false, true, false, false} // equal points do not dominate each other
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("point %d: dominated %v, want %v", i, got[i], want[i])
		}
	}
}

// memFolder is a chart.Folder in memory.
type memFolder map[string][]byte

func (m memFolder) WriteFile(name string, write func(io.Writer) error) error {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	m[name] = b.Bytes()
	return nil
}

// The front's series: one per label in legend order, each sorted by energy
// with its bars and tags moved along, points missing a coordinate left out.
func TestFrontSeries(t *testing.T) {
	legend := chart.Legend{Labels: []string{"hybrid", "hybrid-energy"}, Policies: []string{"hybrid", "hybrid-energy"}}
	pts := []frontPoint{
		{Label: "hybrid-energy", Energy: 0.9, EnergyCI: 0.01, Latency: 0.05, LatencyCI: 0.001, Tag: "w=0.1"},
		{Label: "hybrid-energy", Energy: 0.7, EnergyCI: 0.02, Latency: 0.09, LatencyCI: 0.002, Tag: "w=0.3"},
		{Label: "hybrid-energy", Energy: math.NaN(), Latency: 0.1},
		{Label: "hybrid", Energy: 0.97, EnergyCI: math.NaN(), Latency: 0.05, LatencyCI: 0.001},
	}
	fs := frontSeries(pts, legend)
	if len(fs) != 2 || fs[0].Label != "hybrid" || fs[1].Label != "hybrid-energy" {
		t.Fatalf("series %+v: want hybrid, then hybrid-energy", fs)
	}
	he := fs[1].Points
	if len(he) != 2 || he[0].X != 0.7 || he[0].XErr != 0.02 || he[0].High != 0.002 || he[0].Tag != "w=0.3" || he[1].Tag != "w=0.1" {
		t.Errorf("hybrid-energy series %+v: want sorted by energy, bars and tags with their points", he)
	}
	if fs[0].Points[0].XErr != 0 {
		t.Errorf("a missing interval draws no bar, got %+v", fs[0].Points)
	}
	m := memFolder{}
	c := chart.Chart{FigureOptions: chart.FigureOptions{Title: "t", XLabel: "J", YLabel: "s"}, Legend: legend, Series: fs, Note: FrontCaption}
	if err := c.Save(m, "front", "png"); err != nil {
		t.Fatal(err)
	}
	if png := m["front.png"]; !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("front.png is not a PNG (%d bytes)", len(png))
	}
	c.Series = frontSeries(nil, legend)
	if err := c.Save(m, "none", "png"); !errors.Is(err, chart.ErrNoData) {
		t.Errorf("no points: %v, want ErrNoData", err)
	}
}
