package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/results"
)

// The rule that sets a point apart in the *_stable figures: near a tier's
// capacity, where latency grows like 1/(1 − ρ) and a run of finite length
// measures mostly how close ρ came to 1, and far above every other policy
// at the same swept value.
const (
	// ApartLoad is the offered load from which a point counts as near a
	// tier's capacity: at 0.9 an M/M/1 queue's mean wait is already nine
	// services, and it doubles again by 0.95.
	ApartLoad = 0.9
	// ApartFactor is how far above the median of the other policies'
	// means at the same swept value such a point must be to be set apart.
	ApartFactor = 5.0
)

// SetApart splits summaries by the rule of the *_stable figures: apart are
// those where some tier's mean offered load (util_<tier>) is at least
// ApartLoad and whose mean of metric exceeds ApartFactor times the median
// of the other summaries' means at the same swept value (there must be
// at least one other); rest are the others, in order. A figure drawn with
// FigureOptions.SetApart fits its Y axis to rest and draws apart at its
// top, with their values written beside them.
func SetApart(sums []results.Summary, metric string) (apart, rest []results.Summary) {
	for _, s := range sums {
		m := s.Get(metric)
		var others []float64
		for _, o := range sums {
			if o.Policy != s.Policy && o.Value == s.Value {
				if x := o.Get(metric); isFinite(x) {
					others = append(others, x)
				}
			}
		}
		if isFinite(m) && len(others) > 0 && maxUtil(s) >= ApartLoad && m > ApartFactor*median(others) {
			apart = append(apart, s)
		} else {
			rest = append(rest, s)
		}
	}
	return apart, rest
}

// maxUtil is a summary's largest mean offered load of a tier (NaN with no
// util_ column).
func maxUtil(s results.Summary) float64 {
	u := math.NaN()
	for i, c := range s.Cols {
		if strings.HasPrefix(c.Name, "util_") && isFinite(s.Mean[i]) && !(s.Mean[i] <= u) {
			u = s.Mean[i]
		}
	}
	return u
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// ApartCaption is the sentence of a figure's caption that names the points
// set apart, each with its value: "" when there are none.
func ApartCaption(apart []results.Summary, legend chart.Legend, metric string) string {
	if len(apart) == 0 {
		return ""
	}
	names := make([]string, 0, len(apart))
	for _, s := range apart {
		names = append(names, s.Policy)
	}
	var parts []string
	for _, n := range sortedByLegend(names, legend) {
		var vals []string
		for _, s := range apart {
			if s.Policy == n {
				vals = append(vals, fmt.Sprintf("%s (%s)", strconv.FormatFloat(s.Value, 'g', 4, 64), chart.ApartValue(s.Get(metric))))
			}
		}
		parts = append(parts, n+" at "+strings.Join(vals, ", "))
	}
	return fmt.Sprintf("Drawn at the top of the axis, with its value beside it, and left out of the axis's range: %s — near a tier's capacity "+
		"(a tier's mean offered load ≥ %g) and more than %g times the median of the other policies at that value.",
		strings.Join(parts, "; "), ApartLoad, ApartFactor)
}

// markApart flags the points of ss that are in apart (by policy and
// swept value).
func markApart(ss []chart.Series, apart []results.Summary) {
	for _, s := range ss {
		for j, p := range s.Points {
			if slices.ContainsFunc(apart, func(a results.Summary) bool { return a.Policy == s.Label && a.Value == p.X }) {
				s.Points[j].Apart = true
			}
		}
	}
}
