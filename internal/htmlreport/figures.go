package htmlreport

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"math"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/report"
	"github.com/offload-sim/offload/internal/results"
)

// memFolder is a chart.Folder in memory: the figures are drawn into it
// and embedded, never written to disk.
type memFolder map[string][]byte

// WriteFile implements chart.Folder.
func (m memFolder) WriteFile(name string, write func(io.Writer) error) error {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	m[name] = b.Bytes()
	return nil
}

// scenarioFacts reads what the figures need from scenario.yaml: the
// legend, the swept parameter, the tiers (name and kind) and the classes
// with a deadline. A folder without one (a reproduction's root) has none
// of them.
func scenarioFacts(fsys fs.FS) (Contents, error) {
	c := Contents{FS: fsys}
	b, err := fs.ReadFile(fsys, "scenario.yaml")
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, err
	}
	if c.Legend, c.Param, err = report.ScenarioLegend(b); err != nil {
		return c, err
	}
	if c.Deadlines, err = report.ScenarioDeadlines(b); err != nil {
		return c, err
	}
	var doc struct {
		Tiers []Tier `yaml:"tiers"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return c, fmt.Errorf("scenario.yaml: %w", err)
	}
	c.Tiers = doc.Tiers
	return c, nil
}

// Tier is a scenario tier as the figures need it.
type Tier struct {
	Name string `yaml:"name"`
	Kind string `yaml:"kind"`
}

// figure is one figure to draw: its title and caption (HTML text beside
// the image, so that they can be read, searched and printed sharply) and
// the drawing into a Folder as SVG.
type figure struct {
	title, caption string
	draw           func(dir chart.Folder, file string) error
}

// figures draws the folder's figures, as the experiment that made it drew
// them, and returns each as a <figure> element. A figure without data
// (chart.ErrNoData: a run without a sweep, no stable point) is left out.
func figures(c Contents, own OwnFigures) ([]string, error) {
	fsys, legend, param := c.FS, c.Legend, c.Param
	var figs []figure
	xlabel := report.ParamLabel(param)
	_, isMAPE := fs.Stat(fsys, "mape_summary.csv")
	if isMAPE == nil {
		f, err := mapeFigures(fsys, param)
		if err != nil {
			return nil, err
		}
		figs = append(figs, f...)
	} else if param != "" {
		figs = append(figs, sweepFigures(c, false)...)
	}
	if own != nil {
		fs, err := own(c)
		if err != nil {
			return nil, err
		}
		for _, f := range fs {
			figs = append(figs, figure{f.Title, f.Caption, func(d chart.Folder, file string) error {
				return f.Draw(d, file, "svg", false, false)
			}})
		}
	}
	if runs, err := fs.ReadFile(fsys, "runs.csv"); err == nil && slices.Contains(legend.Labels, "jsq-s") {
		rs, err := results.ReadRunsAny(bytes.NewReader(runs))
		if err != nil {
			return nil, err
		}
		rs = slices.DeleteFunc(rs, func(r results.Run) bool { return r.Get("valid") == 0 })
		ds, err := results.CompareTo(rs, "jsq-s", results.ColMeanLatency)
		if err != nil {
			return nil, err
		}
		o := chart.FigureOptions{YLabel: "difference in mean latency (s)"}
		if param != "" {
			o.XLabel = xlabel
		}
		figs = append(figs, figure{"Mean latency: each policy − jsq-s, paired by replicate", report.DiffNote(ds, legend),
			func(d chart.Folder, file string) error { return report.PlotDiffs(d, file, "svg", ds, legend, o) }})
	}
	return drawFigures(figs)
}

// drawFigures draws each figure as SVG and returns it as a <figure>
// element; one without data (chart.ErrNoData) is left out.
func drawFigures(figs []figure) ([]string, error) {
	var out []string
	for i, f := range figs {
		dir := memFolder{}
		file := fmt.Sprintf("f%d.svg", i)
		err := f.draw(dir, file)
		if errors.Is(err, chart.ErrNoData) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("figure %q: %w", f.title, err)
		}
		out = append(out, embed(dir[file], f.title, f.caption))
	}
	return out, nil
}

// sweepFigures are the figures the sweep drew into its folder
// (report.SweepFigures, as internal/analysis draws them), with their
// titles and captions in the page rather than in the image; a *_stable
// figure that left nothing out is not repeated. The per-class figures are
// those of classes alone, the others without them.
func sweepFigures(c Contents, classes bool) []figure {
	names := make([]string, len(c.Tiers))
	for i, t := range c.Tiers {
		names[i] = t.Name
	}
	var figs []figure
	for _, f := range report.SweepFigures(c.Sums, c.Legend, c.Param, names, report.ClassesOf(c.Sums, c.Deadlines)) {
		if f.Redundant || slices.Contains(report.ClassFigures(), f.File) != classes {
			continue
		}
		figs = append(figs, figure{f.Title, f.Caption, func(d chart.Folder, file string) error {
			return f.Draw(d, file, "svg", false, false)
		}})
	}
	return figs
}

// mapeFigures re-draw the mape experiment's figures from mape_summary.csv.
func mapeFigures(fsys fs.FS, param string) ([]figure, error) {
	xlabel := report.ParamLabel(param)
	b, err := fs.ReadFile(fsys, "mape_summary.csv")
	if err != nil {
		return nil, err
	}
	// Only the columns drawn are required: a file from before the idle
	// split (docs/paper's, say) lacks mape_idle and the rest.
	recs, err := records(b, []string{"experiment", "param", "value", "router", "estimator", "runs", results.ColMAPE, "mape_ci95", "mae_wait_s", "mae_wait_s_ci95"})
	if err != nil {
		return nil, fmt.Errorf("mape_summary.csv: %w", err)
	}
	cols := []results.Column{{Name: results.ColMAPE}, {Name: results.ColMAEWait}}
	var sums []results.Summary
	router := ""
	for _, r := range recs {
		s := results.Summary{Experiment: r["experiment"], Param: r["param"], Value: float(r["value"]), Policy: r["estimator"], Cols: cols,
			Mean: []float64{float(r[results.ColMAPE]), float(r["mae_wait_s"])}, CI95: []float64{float(r["mape_ci95"]), float(r["mae_wait_s_ci95"])}}
		s.Runs, _ = strconv.Atoi(r["runs"])
		router = r["router"]
		sums = append(sums, s)
	}
	legend := chart.Legend{Labels: []string{"hybrid", "model-only", "queue-only"}, Policies: []string{"hybrid", "model-only", "queue-only"}}
	return []figure{
		{"Prediction error vs " + report.ParamName(param) + ", router " + router, report.SweepCaption, func(d chart.Folder, file string) error {
			return report.PlotMetricWith(d, file, "svg", sums, legend, results.ColMAPE,
				chart.FigureOptions{XLabel: xlabel, YLabel: "MAPE (%)", LogY: report.SuggestLogY(sums, results.ColMAPE)})
		}},
		{"Mean absolute error of the predicted wait vs " + report.ParamName(param), report.SweepCaption, func(d chart.Folder, file string) error {
			return report.PlotMetricWith(d, file, "svg", sums, legend, results.ColMAEWait,
				chart.FigureOptions{XLabel: xlabel, YLabel: "MAE of the wait (s)", LogY: report.SuggestLogY(sums, results.ColMAEWait)})
		}},
	}, nil
}

// records reads a CSV into maps by header name; the header must have every
// name in need.
func records(b []byte, need []string) ([]map[string]string, error) {
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, errors.New("empty file")
	}
	for _, n := range need {
		if !slices.Contains(recs[0], n) {
			return nil, fmt.Errorf("no %s column", n)
		}
	}
	var out []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for j, h := range recs[0] {
			m[h] = at(r, j)
		}
		out = append(out, m)
	}
	return out, nil
}

// float parses a CSV number; an empty or bad cell is NaN (missing).
func float(s string) float64 {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.NaN()
	}
	return x
}

// embed turns an SVG file into a <figure>: the XML prelude goes (it is not
// allowed inside HTML), the image gets a role and a label for screen
// readers, and the title and caption become HTML text under it.
func embed(svg []byte, title, caption string) string {
	s := string(svg)
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	s = strings.Replace(s, "<svg", `<svg role="img" aria-label="`+html.EscapeString(title)+`"`, 1)
	cap := "<strong>" + html.EscapeString(title) + ".</strong>"
	if caption != "" {
		cap += " " + html.EscapeString(caption)
	}
	return "<figure>\n" + s + "<figcaption>" + cap + "</figcaption>\n</figure>\n"
}
