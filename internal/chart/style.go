package chart

import (
	"image/color"
	"slices"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Style is how one policy looks in every plot.
type Style struct {
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
var policyStyles = map[string]Style{
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
var fallbackStyles = []Style{
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

// Rank is a label's place in the legend; names outside it go last.
func (l Legend) Rank(label string) int {
	if i := slices.Index(l.Labels, label); i >= 0 {
		return i
	}
	return len(l.Labels)
}

// Styler hands out styles: the fixed one of the label's policy (dashed for
// a later variant of the same policy), else the next fallback, so that
// unknown names are distinct within one plot.
type Styler struct {
	legend Legend
	next   int
}

// Styler hands out the legend's styles, as a chart of it draws them: one
// Styler per plot, asked for each series in the order drawn.
func (l Legend) Styler() *Styler { return &Styler{legend: l} }

// Style is the label's look.
func (st *Styler) Style(label string) Style {
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

// UnstableRing is the ring drawn around an unstable point, for a figure of
// its own layout to draw and list in its legend alike.
func UnstableRing() draw.GlyphStyle { return unstableRing }

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
