package claims

import (
	"fmt"
	"math"
	"strconv"
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
			fmt.Fprintf(&b, "\n%s — %s\n\n| cell | first | second | difference | ± 95%% CI | pairs | verdict |\n| --- | ---: | ---: | ---: | ---: | ---: | --- |\n", cmp.Title, combine(cmp.Cells))
			for _, x := range cmp.Cells {
				v := string(x.Verdict)
				if x.Note != "" {
					v += " (" + x.Note + ")"
				}
				fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %d | %s |\n", x.Label, g(x.A), g(x.B), g(x.Diff), g(x.CI95), x.N, v)
			}
		}
		for _, cmp := range c.Evidence {
			fmt.Fprintf(&b, "\n%s — evidence, not counted in the verdict\n\n| cell | first | second | difference | ± 95%% CI | pairs | reading |\n| --- | ---: | ---: | ---: | ---: | ---: | --- |\n", cmp.Title)
			for _, x := range cmp.Cells {
				v := reading(x)
				if x.Note != "" {
					v += " (" + x.Note + ")"
				}
				fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %d | %s |\n", x.Label, g(x.A), g(x.B), g(x.Diff), g(x.CI95), x.N, v)
			}
		}
	}
	return b.String()
}

// g formats a number with 4 significant digits, "—" when missing.
func g(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "—"
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

// reading says what an evidence cell shows, in words rather than a verdict:
// evidence claims nothing, so PASS/FAIL would mislead.
func reading(c Cell) string {
	switch c.Verdict {
	case Pass:
		return "first lower"
	case Fail:
		return "first higher"
	case Skipped:
		return "skipped"
	}
	return "not separated"
}
