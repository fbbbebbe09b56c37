package report

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/results"
)

// Class is a task class as its figures need it: its name, and whether it
// has a deadline (without one, its deadline_miss_class column counts only
// the tasks that did not complete, and the figure of misses is not drawn
// for it alone).
type Class struct {
	Name     string
	Deadline bool
}

// The per-class figures' file stems.
const (
	ClassLatencyFigure      = "class_latency"
	ClassP95Figure          = "class_p95"
	ClassDeadlineMissFigure = "class_deadline_miss"
)

// ClassFigures are the file stems the per-class figures may take.
func ClassFigures() []string {
	return []string{ClassLatencyFigure, ClassP95Figure, ClassDeadlineMissFigure}
}

// ClassesOf lists the task classes whose columns the summaries have, in
// column order, each marked with a deadline when deadlines names it.
func ClassesOf(sums []results.Summary, deadlines []string) []Class {
	var out []Class
	if len(sums) == 0 {
		return nil
	}
	for _, c := range sums[0].Cols {
		if name, ok := strings.CutPrefix(c.Name, results.ClassLatencyCol("")); ok {
			d := false
			for _, n := range deadlines {
				d = d || n == name
			}
			out = append(out, Class{Name: name, Deadline: d})
		}
	}
	return out
}

// ClassCaption is the note of the per-class figures.
const ClassCaption = "One panel per task class, each with an axis of its own: every policy over the class's measured tasks, " +
	"mean over replicates with its 95% Student-t interval as bars."

// classes are the per-class figures of a sweep: each class's mean and P95
// latency per policy against the swept value, one panel per class, and,
// when some class has a deadline, the share of each class's tasks that
// missed it. None without classes.
func (g sweepFigs) classes(sums []results.Summary, classes []Class) []chart.Figure {
	if len(classes) == 0 {
		return nil
	}
	figs := []chart.Figure{
		g.classFigure(ClassLatencyFigure, "Mean latency per task class vs "+g.name, "mean latency (s)",
			"Mean latency of the class's completed tasks.", sums, classes, results.ClassLatencyCol, true),
		g.classFigure(ClassP95Figure, "P95 latency per task class vs "+g.name, "P95 latency (s)",
			"95th percentile of the latency of the class's completed tasks.", sums, classes, results.ClassP95Col, true),
	}
	var with []Class
	for _, c := range classes {
		if c.Deadline {
			with = append(with, c)
		}
	}
	if len(with) > 0 {
		what := "Share of the class's measured tasks that did not complete within its deadline: completed late, or dropped, abandoned, lost or timed out. " +
			"Linear axis from 0, so that a policy that misses none shows."
		if len(with) < len(classes) {
			what += " Only the classes with a deadline have a panel."
		}
		figs = append(figs, g.classFigure(ClassDeadlineMissFigure, "Deadline misses per task class vs "+g.name, "share missing the deadline",
			what, sums, with, results.ClassDeadlineMissCol, false))
	}
	return figs
}

// classFigure is one per-class figure: a panel per class of the column
// col(class), Y on a log axis where logY allows and the class's means span
// more than a factor of 10.
func (g sweepFigs) classFigure(file, title, ylabel, what string, sums []results.Summary, classes []Class, col func(string) string, logY bool) chart.Figure {
	caption := what + " " + ClassCaption
	if g.anyUnstable {
		caption += " Ringed: unstable (a tier's offered load shown above 1)."
	}
	legend, logX, xs := g.legend, g.logX, sweptValues(sums)
	o := chart.FigureOptions{XLabel: g.xlabel, YLabel: ylabel, LogX: logX}
	return chart.NewFigure(file, title, caption, o, func(dir chart.Folder, file, format string, o chart.FigureOptions) error {
		cols := 3 // a row of up to three, four as two by two
		if len(classes) == 4 {
			cols = 2
		}
		ps := chart.Panels{Title: o.Title, Width: o.Width, Height: o.Height, Columns: cols}
		if o.Caption {
			ps.Caption = caption
		}
		for _, c := range classes {
			m := col(c.Name)
			ly := logY && SuggestLogY(sums, m)
			// A linear axis of nothing but zeros (no task missed) shows
			// [0, 1], not gonum's [−1, 1].
			none := !slices.ContainsFunc(sums, func(s results.Summary) bool { return s.Get(m) > 0 })
			ps.Charts = append(ps.Charts, chart.Chart{
				FigureOptions: chart.FigureOptions{Title: "class " + c.Name, XLabel: o.XLabel, YLabel: o.YLabel, LogX: o.LogX, LogY: ly},
				Legend:        legend, Series: buildSeries(sums, legend, pickColumn(m), ly), Dodge: true, XTicks: xs, Fraction: !ly && none})
		}
		return ps.Save(dir, file, format)
	})
}

// ScenarioDeadlines reads, from a results folder's scenario.yaml, the
// names of the task classes that have a deadline (for ClassesOf), reading
// only those keys, as ScenarioLegend does.
func ScenarioDeadlines(data []byte) ([]string, error) {
	var doc struct {
		Classes []struct {
			Name     string  `yaml:"name"`
			Deadline float64 `yaml:"deadline"`
		} `yaml:"classes"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("scenario.yaml: %w", err)
	}
	var out []string
	for _, c := range doc.Classes {
		if c.Deadline > 0 {
			out = append(out, c.Name)
		}
	}
	return out, nil
}
