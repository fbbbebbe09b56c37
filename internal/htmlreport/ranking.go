package htmlreport

import (
	"fmt"
	"html"
	"math"
	"slices"
	"strings"

	"github.com/offload-sim/offload/internal/report"
)

// Ranking is one cell's policies compared pair by pair on their common
// replicates (paired differences under common random numbers), with the
// p-values adjusted by Holm over all the cell's pairs, and ranked on the
// significant differences: what `offload compare` writes to
// ranking_<metric>.csv and pairs_<metric>.csv. The caller computes it
// (Options.Rank); the page only shows it.
type Ranking struct {
	Value      float64 // the swept value; NaN without a sweep
	Replicates int     // replicates every pair stands on
	Policies   []string
	Rank       []int // per policy, from 1 (best); policies of one rank are not told apart
	Pairs      []RankedPair
}

// RankedPair is one tested pair of a Ranking: the mean difference A − B
// over the pairs with its 95% half-width, the raw and the Holm-adjusted
// two-sided p-values, and whether the adjusted one is at most 5%.
type RankedPair struct {
	A, B             string
	N                int
	Diff, CI95       float64
	P, PHolm         float64
	Significant      bool
	ABetter, BBetter bool // the significant difference's direction, when the metric has one
}

// rankingSection writes the rankings of one experiment folder, if the
// caller computes them and some cell has two policies or more.
func (p *page) rankingSection(rs []Ranking, metric, param, id string, level int) {
	if !slices.ContainsFunc(rs, func(r Ranking) bool { return len(r.Policies) > 1 }) {
		return
	}
	swept := param != "" && slices.ContainsFunc(rs, func(r Ranking) bool { return isFinite(r.Value) })
	p.heading(level, "Ranking", id+"ranking")
	fmt.Fprintf(&p.b, "<p>The policies of each cell ranked on %s by paired t tests on their common replicates (common random numbers), "+
		"the p-values adjusted by Holm over all the cell's pairs; a difference is significant when its adjusted p-value is at most 0.05. "+
		"A policy ranks one below the lowest-ranked policy significantly better than it: policies of one rank are not told apart. "+
		"<code>offload compare</code> writes the same to ranking_&lt;metric&gt;.csv and pairs_&lt;metric&gt;.csv.</p>\n",
		html.EscapeString(report.MetricLabel(metric)))
	cellHead := ""
	if swept {
		cellHead = "<th class=\"num\">" + html.EscapeString(param) + "</th>"
	}
	p.b.WriteString("<div class=\"scroll\"><table class=\"data\">\n<thead><tr>" + cellHead +
		"<th class=\"num\">replicates</th><th>ranks, best first</th><th class=\"num\">significant pairs</th></tr></thead>\n<tbody>\n")
	for _, r := range rs {
		sig := 0
		for _, pr := range r.Pairs {
			if pr.Significant {
				sig++
			}
		}
		p.b.WriteString("<tr>" + cellTD(swept, r.Value))
		fmt.Fprintf(&p.b, "<td class=\"num\">%d</td><td>%s</td><td class=\"num\">%d of %d</td></tr>\n",
			r.Replicates, html.EscapeString(rankGroups(r)), sig, len(r.Pairs))
	}
	p.b.WriteString("</tbody></table></div>\n")
	p.b.WriteString("<p>Every pair: the mean difference a − b with its 95% interval, the raw and the Holm-adjusted p-value.</p>\n")
	p.b.WriteString("<div class=\"scroll\"><table class=\"data\">\n<thead><tr>" + cellHead +
		"<th>policy a</th><th>policy b</th><th class=\"num\">a − b</th><th class=\"num\">p</th><th class=\"num\">p (Holm)</th><th>significant</th></tr></thead>\n<tbody>\n")
	prev := math.NaN()
	for _, r := range rs {
		for k, pr := range r.Pairs {
			tr := "<tr>"
			if swept && k == 0 && !math.IsNaN(prev) {
				tr = "<tr class=\"cell\">"
			}
			verdict := "no"
			switch {
			case pr.Significant && pr.ABetter:
				verdict = "<strong>yes</strong>: " + html.EscapeString(pr.A) + " better"
			case pr.Significant && pr.BBetter:
				verdict = "<strong>yes</strong>: " + html.EscapeString(pr.B) + " better"
			case pr.Significant:
				verdict = "<strong>yes</strong>"
			}
			fmt.Fprintf(&p.b, "%s%s<td>%s</td><td>%s</td><td class=\"num\">%s</td><td class=\"num\">%s</td><td class=\"num\">%s</td><td>%s</td></tr>\n",
				tr, cellTD(swept, r.Value), html.EscapeString(pr.A), html.EscapeString(pr.B), meanCI(pr.Diff, pr.CI95),
				pValue(pr.P), pValue(pr.PHolm), verdict)
		}
		prev = r.Value
	}
	p.b.WriteString("</tbody></table></div>\n")
}

// cellTD is the swept value's cell of a row, "" without a sweep.
func cellTD(swept bool, v float64) string {
	if !swept {
		return ""
	}
	return "<td class=\"num\">" + num(v) + "</td>"
}

// rankGroups writes a ranking as its groups of equal rank, best first:
// "1: a, b; 2: c".
func rankGroups(r Ranking) string {
	var groups []string
	for rank := 1; rank <= len(r.Policies); rank++ {
		var g []string
		for i, pol := range r.Policies {
			if r.Rank[i] == rank {
				g = append(g, pol)
			}
		}
		if len(g) > 0 {
			groups = append(groups, fmt.Sprintf("%d: %s", rank, strings.Join(g, ", ")))
		}
	}
	return strings.Join(groups, "; ")
}

// pValue writes a p-value with two significant digits, "< 0.0001" below
// that: the smaller ones say no more.
func pValue(x float64) string {
	if isFinite(x) && x < 1e-4 {
		return "&lt; 0.0001"
	}
	return num2(x)
}
