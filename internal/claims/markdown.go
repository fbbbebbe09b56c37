package claims

import (
	"fmt"
	"math"
	"strings"
)

// Markdown renders the claims report: a table of verdicts, then each claim
// with the numbers behind it.
func Markdown(title, provenance string, cs []Claim) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%s\n\n", title, provenance)
	b.WriteString("Verdicts use paired per-replicate differences (common random numbers): PASS if the 95% t-interval of the difference lies on the claimed side in every cell, FAIL if it lies on the other side in any cell, INCONCLUSIVE otherwise.\n\n")
	b.WriteString("| # | claim | verdict |\n| --- | --- | --- |\n")
	for _, c := range cs {
		fmt.Fprintf(&b, "| %d | %s | **%s** |\n", c.ID, c.Text, c.Verdict)
	}
	for _, c := range cs {
		fmt.Fprintf(&b, "\n## Claim %d: %s\n\n%s\n", c.ID, c.Verdict, c.Text)
		for _, n := range c.Notes {
			fmt.Fprintf(&b, "\n%s\n", n)
		}
		for _, cmp := range c.Comparisons {
			writeTable(&b, cmp, string(combine(cmp.Cells)), "verdict", func(x Cell) string { return string(x.Verdict) })
		}
		for _, cmp := range c.Evidence {
			writeTable(&b, cmp, "evidence, not counted in the verdict", "reading", func(x Cell) string { return reading(x, cmp.A) })
		}
	}
	return b.String()
}

// writeTable writes one comparison: its title and status, a table headed
// by the two sides' names in one unit (PickUnit), and the sentences that
// read it (Reading). last heads the last column, whose cells say what
// each row shows.
func writeTable(b *strings.Builder, cmp Comparison, status, last string, say func(Cell) string) {
	var vals []float64
	for _, x := range cmp.Cells {
		vals = append(vals, x.A, x.B)
	}
	u := PickUnit(cmp.Unit, vals...)
	title := cmp.Title
	if u.Name != "" {
		title += " (" + u.Name + ")"
	}
	a, bn := orWord(cmp.A, "first"), orWord(cmp.B, "second")
	fmt.Fprintf(b, "\n%s — %s\n\n| cell | %s | %s | difference | ± 95%% CI | pairs | %s |\n| --- | ---: | ---: | ---: | ---: | ---: | --- |\n",
		title, status, a, bn, last)
	for _, x := range cmp.Cells {
		v := say(x)
		if x.Note != "" {
			v += " (" + x.Note + ")"
		}
		d, ci := MeanDiff(x.Diff*u.Factor, x.CI95*u.Factor)
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %d | %s |\n", x.Label, Sig(x.A*u.Factor, 4), Sig(x.B*u.Factor, 4), d, ci, x.N, v)
	}
	if r := Reading(cmp); r != "" {
		fmt.Fprintf(b, "\n%s\n", r)
	}
}

func orWord(s, w string) string {
	if s == "" {
		return w
	}
	return s
}

// reading says what an evidence cell shows, in words rather than a verdict:
// evidence claims nothing, so PASS/FAIL would mislead.
func reading(c Cell, a string) string {
	a = orWord(a, "first")
	switch c.Verdict {
	case Pass:
		return a + " lower"
	case Fail:
		return a + " higher"
	case Skipped:
		return "skipped"
	}
	return "not separated"
}

// Reading reads a comparison in a sentence or two, from its cells alone:
// where A is lower than B, higher, or not separated by the 95% interval,
// by how much (in the table's unit, and relative to B), and the cells a
// note qualifies ("" for a comparison without cells).
func Reading(cmp Comparison) string {
	var vals []float64
	for _, x := range cmp.Cells {
		vals = append(vals, x.A, x.B)
	}
	u := PickUnit(cmp.Unit, vals...)
	a, bn := orWord(cmp.A, "the first"), orWord(cmp.B, "the second")
	groups := map[Verdict][]Cell{}
	for _, x := range cmp.Cells {
		groups[x.Verdict] = append(groups[x.Verdict], x)
	}
	counted := len(cmp.Cells) - len(groups[Skipped])
	if counted == 0 {
		return ""
	}
	var parts []string
	for _, g := range []struct {
		v    Verdict
		word string
	}{{Pass, "lower than " + bn}, {Fail, "higher"}, {Inconclusive, "not separated"}} {
		cells := groups[g.v]
		if len(cells) == 0 {
			continue
		}
		part := g.word
		if where := cellsWhere(cells, len(cells) == counted); where != "" {
			part += " " + where
		}
		if g.v != Inconclusive {
			part += " (by " + spread(cells, u, cmp.Unit, bn) + ")"
		}
		parts = append(parts, part)
	}
	if len(groups[Pass]) == 0 {
		parts[0] = strings.Replace(parts[0], "higher", "higher than "+bn, 1)
		parts[0] = strings.Replace(parts[0], "not separated", "not separated from "+bn, 1)
	}
	s := a + " is " + joinAnd(parts) + "."
	notes := map[string][]Cell{}
	var order []string
	for _, x := range cmp.Cells {
		if x.Note == "" || x.Verdict == Skipped {
			continue
		}
		if _, ok := notes[x.Note]; !ok {
			order = append(order, x.Note)
		}
		notes[x.Note] = append(notes[x.Note], x)
	}
	for _, n := range order {
		where := cellsWhere(notes[n], len(notes[n]) == len(cmp.Cells))
		s += " " + upper(strings.TrimPrefix(where+", "+n, ", ")) + "."
	}
	if k := len(groups[Skipped]); k > 0 {
		s += " " + upper(cellsWhere(groups[Skipped], false)) + ": left out (" + groups[Skipped][0].Note + ")."
	}
	return s
}

// cellsWhere names cells for a sentence: "at every arrivals.rate", "at
// arrivals.rate = 10, 20 and 40", "in the pairs a < b and c < d", or ""
// for a table of one cell.
func cellsWhere(cells []Cell, every bool) string {
	if len(cells) == 0 {
		return ""
	}
	param, vals, same := "", []string{}, true
	for _, x := range cells {
		p, v, ok := strings.Cut(x.Label, " = ")
		if !ok || (param != "" && p != param) {
			same = false
			break
		}
		param, vals = p, append(vals, v)
	}
	switch {
	case same && every:
		return "at every " + param
	case same:
		return "at " + param + " = " + joinAnd(vals)
	case len(cells) == 1 && every:
		return ""
	}
	var ls []string
	for _, x := range cells {
		ls = append(ls, x.Label)
	}
	return "in " + joinAnd(ls)
}

// spread is the range of the cells' differences, in unit u and relative
// to B (named b): "1.4–1.5 ms, 3.1–3.4% relative to edge-first". Seconds
// take the unit of each end when the ends differ by orders of magnitude
// ("13 ms–550 s"); differences of percentages are percentage points.
func spread(cells []Cell, u Unit, base, b string) string {
	lo, hi, rlo, rhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, x := range cells {
		d := math.Abs(x.Diff)
		lo, hi = math.Min(lo, d), math.Max(hi, d)
		if x.B != 0 && isFinite(x.B) {
			r := 100 * math.Abs(x.Diff/x.B)
			rlo, rhi = math.Min(rlo, r), math.Max(rhi, r)
		}
	}
	with := func(x float64, u Unit) string {
		switch u.Name {
		case "":
			return Sig(x*u.Factor, 2)
		case "%":
			return Sig(x*u.Factor, 2) + " percentage points"
		}
		return Sig(x*u.Factor, 2) + " " + u.Name
	}
	var s string
	switch ul, uh := PickUnit(base, lo), PickUnit(base, hi); {
	case Sig(lo*u.Factor, 2) == Sig(hi*u.Factor, 2):
		s = with(lo, u)
	case base == "s" && ul != uh:
		s = with(lo, ul) + "–" + with(hi, uh)
	default:
		s = strings.Replace(with(hi, u), Sig(hi*u.Factor, 2), Sig(lo*u.Factor, 2)+"–"+Sig(hi*u.Factor, 2), 1)
	}
	if !math.IsInf(rlo, 1) && u.Name != "%" {
		s += ", " + rangeOf(rlo, rhi) + "% relative to " + b
	}
	return s
}

// joinAnd joins words as a sentence lists them: "a", "a and b", "a, b and c".
func joinAnd(ws []string) string {
	switch len(ws) {
	case 0:
		return ""
	case 1:
		return ws[0]
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " and " + ws[len(ws)-1]
}

func upper(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	return strings.ToUpper(string(r[0])) + string(r[1:])
}

// rangeOf writes "x" or "x–y" with two significant figures.
func rangeOf(lo, hi float64) string {
	a, b := Sig(lo, 2), Sig(hi, 2)
	if a == b {
		return a
	}
	return a + "–" + b
}
