package report

import (
	"cmp"
	"image/color"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// style is how one policy looks in every plot.
type style struct {
	Color color.Color
	Shape draw.GlyphDrawer
	Dash  []vg.Length // nil: solid
}

// policyStyles fixes each policy's look so that it is recognisable across
// plots and figures. Colours are the Okabe–Ito palette (distinguishable
// with the common colour-vision deficiencies) with its yellow, unreadable on
// white, replaced by grey; the marker tells policies apart in greyscale too.
// Filled markers are the estimator policies, line markers the baselines;
// oracle, a clairvoyant reference rather than a policy one could deploy, is
// dashed. The reference baselines of docs/design.md §3.7 take Paul Tol's
// muted colours and outline markers; those that read task sizes (lwl,
// sita-e, sita-opt) are dashed too, more finely than the oracle.
var policyStyles = map[string]style{
	"hybrid":     {rgb(0xD5, 0x5E, 0x00), draw.CircleGlyph{}, nil},
	"model-only": {rgb(0x00, 0x72, 0xB2), draw.BoxGlyph{}, nil},
	"queue-only": {rgb(0x00, 0x9E, 0x73), draw.PyramidGlyph{}, nil},
	"jsq":        {rgb(0xCC, 0x79, 0xA7), diamondGlyph{}, nil},
	"jsq-s":      {rgb(0x56, 0xB4, 0xE9), invPyramidGlyph{}, nil},
	"edge-first": {rgb(0xE6, 0x9F, 0x00), draw.CrossGlyph{}, nil},
	"random":     {rgb(0x80, 0x80, 0x80), draw.PlusGlyph{}, nil},
	"oracle":     {rgb(0x00, 0x00, 0x00), asteriskGlyph{}, []vg.Length{vg.Points(5), vg.Points(3)}},
	// Beyond the paper's eight: darker tones, hollow-looking markers.
	"power-of-d": {rgb(0x33, 0x22, 0x88), draw.RingGlyph{}, nil},
	"hybrid-age": {rgb(0x88, 0x22, 0x55), draw.TriangleGlyph{}, nil},
	"lwl":        {rgb(0xAA, 0x44, 0x99), draw.RingGlyph{}, []vg.Length{vg.Points(3), vg.Points(2)}},
	"sita-e":     {rgb(0x44, 0xAA, 0x99), draw.SquareGlyph{}, []vg.Length{vg.Points(3), vg.Points(2)}},
	"sita-opt":   {rgb(0x00, 0x44, 0x44), draw.TriangleGlyph{}, []vg.Length{vg.Points(3), vg.Points(2)}},
	"static-opt": {rgb(0x99, 0x44, 0x22), draw.SquareGlyph{}, nil},
	"jiq":        {rgb(0x66, 0x66, 0x00), draw.TriangleGlyph{}, nil},
	// The production balancers' algorithms: Paul Tol's vibrant and further
	// saturated colours, solid lines.
	"round-robin":          {rgb(0xEE, 0x77, 0x33), draw.CrossGlyph{}, nil},
	"weighted-round-robin": {rgb(0xCC, 0xBB, 0x44), draw.SquareGlyph{}, nil},
	"least-conn":           {rgb(0xEE, 0x33, 0x77), diamondGlyph{}, nil},
	"p2c":                  {rgb(0x33, 0x66, 0xFF), draw.RingGlyph{}, nil},
	"least-request":        {rgb(0x66, 0x00, 0x99), invPyramidGlyph{}, nil},
	"ewma":                 {rgb(0x5A, 0xAE, 0x61), draw.TriangleGlyph{}, nil},
	"peak-ewma":            {rgb(0x99, 0x00, 0xCC), draw.TriangleGlyph{}, nil},
	"prequal":              {rgb(0xCC, 0x00, 0x66), draw.PyramidGlyph{}, nil},
	// A user's program: a colour of its own; several entries take variant dashes.
	"exec": {rgb(0x11, 0xBB, 0x00), draw.SquareGlyph{}, []vg.Length{vg.Points(4), vg.Points(2)}},

	// The energy-aware hybrid (docs/design.md §3.8): hybrid's marker, a light green, dashed.
	"hybrid-energy": {rgb(0x55, 0xBB, 0x11), draw.CircleGlyph{}, []vg.Length{vg.Points(4), vg.Points(2)}},
}

// fallbackStyles serve names outside policyStyles, in order of first
// appearance in the plot; they reuse the shapes with darker colours.
var fallbackStyles = []style{
	{rgb(0x88, 0x22, 0x55), draw.CircleGlyph{}, []vg.Length{vg.Points(2), vg.Points(2)}},
	{rgb(0x11, 0x77, 0x33), draw.BoxGlyph{}, []vg.Length{vg.Points(2), vg.Points(2)}},
	{rgb(0x33, 0x22, 0x88), draw.PyramidGlyph{}, []vg.Length{vg.Points(2), vg.Points(2)}},
	{rgb(0x99, 0x99, 0x33), diamondGlyph{}, []vg.Length{vg.Points(2), vg.Points(2)}},
}

// variantDashes draw the second, third, … entry of one policy (an ablation
// such as hybrid with ε = 0 beside hybrid): the policy's colour and marker,
// a line of its own.
var variantDashes = [][]vg.Length{
	{vg.Points(6), vg.Points(2)},
	{vg.Points(1), vg.Points(2)},
	{vg.Points(6), vg.Points(2), vg.Points(1), vg.Points(2)},
}

// Legend says how a plot lists and draws its lines: the labels in legend
// order, and the registry policy behind each (Policies[i] runs Labels[i]),
// whose colour and marker the label takes. A name not in the legend is
// looked up as a policy name itself (the mape experiment's estimators), and
// goes after the legend's, in order of first appearance.
type Legend struct {
	Labels   []string
	Policies []string
}

// HasStyle reports whether a registry policy has a fixed look of its own
// (a test keeps every registered policy styled).
func HasStyle(policy string) bool { _, ok := policyStyles[policy]; return ok }

// rank is a label's place in the legend; names outside it go last.
func (l Legend) rank(label string) int {
	if i := slices.Index(l.Labels, label); i >= 0 {
		return i
	}
	return len(l.Labels)
}

// styler hands out styles: the fixed one of the label's policy (dashed for
// a later variant of the same policy), else the next fallback, so that
// unknown names are distinct within one plot.
type styler struct {
	legend Legend
	next   int
}

func (st *styler) style(label string) style {
	policy, variant := label, 0
	if i := slices.Index(st.legend.Labels, label); i >= 0 && i < len(st.legend.Policies) {
		policy = st.legend.Policies[i]
		for _, p := range st.legend.Policies[:i] {
			if p == policy {
				variant++
			}
		}
	}
	if s, ok := policyStyles[policy]; ok {
		if variant > 0 {
			s.Dash = variantDashes[(variant-1)%len(variantDashes)]
		}
		return s
	}
	s := fallbackStyles[st.next%len(fallbackStyles)]
	st.next++
	return s
}

func rgb(r, g, b uint8) color.Color { return color.RGBA{R: r, G: g, B: b, A: 0xFF} }

// unstableRing is drawn around an unstable point: larger than any marker and
// black, so it reads as an annotation, not as another policy.
var unstableRing = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(7), Shape: draw.RingGlyph{}}

// diamondGlyph is a filled square standing on a corner.
type diamondGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (diamondGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius * 1.2
	fillPolygon(c, pt, []vg.Point{{X: 0, Y: r}, {X: r, Y: 0}, {X: 0, Y: -r}, {X: -r, Y: 0}})
}

// invPyramidGlyph is a filled triangle pointing down.
type invPyramidGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (invPyramidGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius + (sty.Radius-sty.Radius*sin30)/2 // as draw.PyramidGlyph, upside down
	fillPolygon(c, pt, []vg.Point{{X: 0, Y: -r}, {X: -r * cos30, Y: r * sin30}, {X: r * cos30, Y: r * sin30}})
}

const (
	sin30 = 0.5
	cos30 = 0.8660254037844386
)

// asteriskGlyph is a plus and a cross over one another.
type asteriskGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (asteriskGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	draw.PlusGlyph{}.DrawGlyph(c, sty, pt)
	draw.CrossGlyph{}.DrawGlyph(c, sty, pt)
}

func fillPolygon(c *draw.Canvas, at vg.Point, pts []vg.Point) {
	var p vg.Path
	p.Move(at.Add(pts[0]))
	for _, q := range pts[1:] {
		p.Line(at.Add(q))
	}
	p.Close()
	c.Fill(p)
}

// logTicks labels a log axis readably whatever its span. gonum's LogTicks
// labels only powers of ten, which leaves an axis spanning less than a
// decade without a single label; here a span under three decades is
// labelled at 1, 2 and 5 × 10^k, a wider one at powers of ten, with
// unlabelled minor ticks at the other integers × 10^k up to five decades
// (MinorDecades, if set: a short axis blurs its minor ticks sooner).
type logTicks struct{ MinorDecades float64 }

// Ticks implements plot.Ticker. min and max must be positive, which the
// plot guarantees by setting the axis range itself.
func (lt logTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max >= min) || math.IsInf(max, 0) { // a degenerate axis: no ticks rather than no end
		return nil
	}
	labelled := map[int]bool{1: true}
	decades := math.Log10(max / min)
	if decades < 3 {
		labelled[2], labelled[5] = true, true
	}
	most := lt.MinorDecades
	if most == 0 {
		most = 5
	}
	minors := decades < most // beyond, minor ticks blur into a solid bar
	var ticks []plot.Tick
	for k := math.Floor(math.Log10(min)); math.Pow(10, k) <= max; k++ {
		for m := 1; m < 10; m++ {
			v := float64(m) * math.Pow(10, k)
			if v < min || v > max {
				continue
			}
			t := plot.Tick{Value: v}
			if labelled[m] {
				t.Label = strconv.FormatFloat(v, 'g', 4, 64)
			} else if !minors && m != 1 {
				continue
			}
			ticks = append(ticks, t)
		}
	}
	return labelEnds(ticks, min, max)
}

// labelEnds labels, at an end of a log axis left without a label over
// more than half a decade, the tick at 2 or 5 × 10^k nearest that end
// (adding it if the minor ticks are off), so that the first and last
// decades of the data can be read off the axis too.
func labelEnds(ticks []plot.Tick, min, max float64) []plot.Tick {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, t := range ticks {
		if t.Label != "" {
			lo, hi = math.Min(lo, t.Value), math.Max(hi, t.Value)
		}
	}
	if math.IsInf(lo, 1) {
		return ticks
	}
	half := math.Sqrt(10)
	for _, end := range []struct {
		gap  bool
		from float64 // the decade to look in: 10^k ≤ v < 10^(k+1)
		best func(a, b float64) bool
	}{
		{hi*half < max, math.Pow(10, math.Floor(math.Log10(max))), func(a, b float64) bool { return a > b }},
		{lo > min*half, math.Pow(10, math.Floor(math.Log10(min))), func(a, b float64) bool { return a < b }},
	} {
		if !end.gap {
			continue
		}
		pick := math.NaN()
		for _, m := range []float64{2, 5} {
			if v := m * end.from; v >= min && v <= max && (math.IsNaN(pick) || end.best(v, pick)) {
				pick = v
			}
		}
		if math.IsNaN(pick) {
			continue
		}
		label := strconv.FormatFloat(pick, 'g', 4, 64)
		if i := slices.IndexFunc(ticks, func(t plot.Tick) bool { return math.Abs(t.Value-pick) <= 1e-12*pick }); i >= 0 {
			ticks[i].Label = label
		} else {
			ticks = append(ticks, plot.Tick{Value: pick, Label: label})
		}
	}
	slices.SortFunc(ticks, func(a, b plot.Tick) int { return cmp.Compare(a.Value, b.Value) })
	return ticks
}

// linearTicks labels about six round values (1, 2 or 5 × 10^k apart) with
// an unlabelled tick between each pair: gonum's default aims at three
// labels, too few to read a value off a 7-inch figure.
type linearTicks struct{}

// Ticks implements plot.Ticker.
func (linearTicks) Ticks(min, max float64) []plot.Tick {
	step := niceStep((max - min) / 6)
	if step == 0 || math.IsInf(step, 0) || math.IsNaN(step) {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	decimals := max0(-int(math.Floor(math.Log10(step))))
	var ticks []plot.Tick
	// Count in half steps from an integer, so no error accumulates.
	for k := math.Ceil(min / step * 2); k <= math.Floor(max/step*2); k++ {
		v := k*step/2 + 0 // adding +0 turns −0 into 0: no "-0.00" label
		t := plot.Tick{Value: v}
		if math.Mod(k, 2) == 0 {
			t.Label = strconv.FormatFloat(v, 'f', decimals, 64)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// niceStep rounds x up to 1, 2 or 5 × 10^k.
func niceStep(x float64) float64 {
	if x <= 0 {
		return 0
	}
	mag := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= x*(1-1e-12) {
			return m * mag
		}
	}
	return 10 * mag
}

// niceFloor rounds a positive x down to 1, 2 or 5 × 10^k.
func niceFloor(x float64) float64 {
	mag := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{5, 2, 1} {
		if m*mag <= x*(1+1e-12) {
			return m * mag
		}
	}
	return mag
}

func max0(n int) int { return max(n, 0) }
