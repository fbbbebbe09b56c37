package load_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/scenario/load"
	"github.com/offload-sim/offload/internal/schema"
	"gopkg.in/yaml.v3"
)

// TestCheckArrivalsSpan: an mmpp's phase changes are bounded over the run's
// span, which the caller gives; the same process passes over a short one.
func TestCheckArrivalsSpan(t *testing.T) {
	a := load.Arrivals{Process: "mmpp", Rates: []float64{1, 3}, Sojourn: []float64{1e-3, 1e-3}}
	a.Resolve(false)
	if a.Rate != 2 {
		t.Fatalf("resolved rate %v, want the stationary 2", a.Rate)
	}
	for _, tt := range []struct {
		span float64
		want string
	}{{1e3, ""}, {1e9, "arrivals.sojourn: 1e+12 phase changes in a run of 1e+09 s is out of range"}} {
		var c schema.Checker
		load.CheckArrivals(&c, a, tt.span)
		got := c.Errs.OrNil()
		switch {
		case tt.want == "" && got != nil:
			t.Errorf("span %v: %v, want no problem", tt.span, got)
		case tt.want != "" && (got == nil || !strings.Contains(got.Error(), tt.want)):
			t.Errorf("span %v: %v, want %q", tt.span, got, tt.want)
		}
	}
}

// TestRates: the bursts' factors and a process's crest bound the rate.
func TestRates(t *testing.T) {
	a := load.Arrivals{Rate: 10, Process: "diurnal", Amplitude: 0.5, Period: 60,
		Bursts: []load.Burst{{Factor: 4}, {Factor: 0.5}, {Factor: 2}}}
	if lo, hi := a.FactorRange(); lo != 0.5 || hi != 8 {
		t.Errorf("factor range [%v, %v], want [0.5, 8]", lo, hi)
	}
	if p := a.PeakRate(); p != 15 {
		t.Errorf("peak rate %v, want 15", p)
	}
}

// TestAttach: attached values are what Values returns, a data law's reach
// its size law, and the digest tells values apart.
func TestAttach(t *testing.T) {
	var d load.Dist
	if d.Digest() != "" || d.Values() != nil {
		t.Fatal("a law with nothing attached has a digest or values")
	}
	d.Attach([]float64{1, 2})
	first := d.Digest()
	if first == "" || !slices.Equal(d.Values(), []float64{1, 2}) {
		t.Fatalf("attached: digest %q, values %v", first, d.Values())
	}
	d.Attach([]float64{1, 3})
	if d.Digest() == first {
		t.Error("other values, same digest")
	}
	data := load.Data{Dist: "empirical", File: "x.csv"}
	data.Attach([]float64{8})
	law := data.Law()
	if !slices.Equal(law.Values(), []float64{8}) || law.Digest() != data.Digest() {
		t.Errorf("a data law's size law: values %v, digest %q, want the data's", law.Values(), law.Digest())
	}
	var tr *load.Trace
	if tr.Digest() != "" || tr.Span() != 0 {
		t.Error("no trace: a digest or a span")
	}
	tr = &load.Trace{Rate: 2}
	tr.Attach([]float64{0, 1, 5}, []float64{1, 1, 1})
	if tr.Span() != 1 || tr.Digest() == "" {
		t.Errorf("trace of 3 rows at rate 2: span %v (want 1), digest %q", tr.Span(), tr.Digest())
	}
}

// TestRestate: a new family drops the parameters it does not take.
func TestRestate(t *testing.T) {
	w := load.Workload{Data: load.Data{Dist: "lognormal", Mean: 8, CV: 2}}
	w.Data.Dist = "exponential"
	w.RestateData([]string{"workload", "data", "dist"}, nil)
	if w.Data != (load.Data{Dist: "exponential", Mean: 8}) {
		t.Errorf("data restated to exponential: %+v", w.Data)
	}
	d := load.Dist{Dist: "pareto", Mean: 1}
	var n yaml.Node
	if err := yaml.Unmarshal([]byte("{dist: pareto, mean: 1}"), &n); err != nil {
		t.Fatal(err)
	}
	load.RestateSize(&d, n.Content[0], 2.5)
	if d.Alpha != 2.5 {
		t.Errorf("pareto without alpha: alpha %v, want the default 2.5", d.Alpha)
	}
}
