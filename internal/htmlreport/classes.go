package htmlreport

import (
	"fmt"
	"html"
	"math"
	"slices"
	"strings"

	"github.com/offload-sim/offload/internal/report"
	"github.com/offload-sim/offload/internal/results"
)

// classSection writes, for a folder whose scenario has task classes, a
// table of each class's mean and P95 latency and deadline misses per cell
// and policy, and the per-class figures of a sweep. Without classes it
// writes nothing, so that the page of any other folder keeps its bytes.
func (p *page) classSection(c Contents, id string, level int) error {
	classes := report.ClassesOf(c.Sums, c.Deadlines)
	if len(classes) == 0 {
		return nil
	}
	p.heading(level, "Task classes", id+"classes")
	var with []string
	for _, k := range classes {
		if k.Deadline {
			with = append(with, k.Name)
		}
	}
	note := "Per task class, over its measured tasks: mean and P95 latency of those that completed, and the share that missed the deadline " +
		"(completed late, or dropped, abandoned, lost or timed out; for a class without a deadline, those that did not complete). "
	if len(with) > 0 {
		note += "Classes with a deadline: " + strings.Join(with, ", ") + "."
	} else {
		note += "No class has a deadline."
	}
	p.b.WriteString("<p>" + html.EscapeString(note) + " Mean over replicates ± half-width of the 95% Student-t interval.</p>\n")
	p.classTable(c.Sums, classes, c.Param)
	if c.Param == "" {
		return nil
	}
	figs, err := drawFigures(sweepFigures(c, true))
	if err != nil {
		return err
	}
	for _, f := range figs {
		p.b.WriteString(f)
	}
	return nil
}

// classTable writes one row per cell and policy, three columns per class;
// columns empty in every row are left out.
func (p *page) classTable(sums []results.Summary, classes []report.Class, param string) {
	type col struct{ name, head string }
	var cols []col
	for _, k := range classes {
		for _, c := range []col{
			{results.ClassLatencyCol(k.Name), k.Name + ": mean latency (s)"},
			{results.ClassP95Col(k.Name), k.Name + ": P95 latency (s)"},
			{results.ClassDeadlineMissCol(k.Name), k.Name + ": missed deadline"},
		} {
			if slices.ContainsFunc(sums, func(s results.Summary) bool { return isFinite(s.Get(c.name)) }) {
				cols = append(cols, c)
			}
		}
	}
	swept := param != "" && slices.ContainsFunc(sums, func(s results.Summary) bool { return isFinite(s.Value) })
	p.b.WriteString("<div class=\"scroll\"><table class=\"data\">\n<thead><tr>")
	if swept {
		p.b.WriteString("<th class=\"num\">" + html.EscapeString(param) + "</th>")
	}
	p.b.WriteString("<th>policy</th>")
	for _, c := range cols {
		p.b.WriteString("<th class=\"num\">" + html.EscapeString(c.head) + "</th>")
	}
	p.b.WriteString("<th></th></tr></thead>\n<tbody>\n")
	prev := math.NaN()
	for _, s := range sums {
		p.summaryRow(s, swept, &prev)
		fmt.Fprintf(&p.b, "<td>%s</td>", html.EscapeString(s.Policy))
		for _, c := range cols {
			p.b.WriteString("<td class=\"num\">" + meanCI(s.Get(c.name), s.CI(c.name)) + "</td>")
		}
		flag := ""
		if s.Unstable {
			flag = "<span class=\"flag\">unstable</span>"
		}
		p.b.WriteString("<td>" + flag + "</td></tr>\n")
	}
	p.b.WriteString("</tbody></table></div>\n")
}
