package analysis

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot/vg"
	"gopkg.in/yaml.v3"

	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/report"
	"github.com/offload-sim/offload/internal/runner"
)

// plotFigure draws one of the sweep's figures (report.SweepFigures: the
// one whose file stem is o.Figure) from the folder's summary.csv and
// scenario.yaml, as the experiment drew it, at the size, title and caption
// o asks for, for the policies of o.Policies.
func plotFigure(ctx context.Context, o PlotOptions, w, h vg.Length) (string, error) {
	switch {
	case o.Y != "":
		return "", runner.BadInputf("--figure %s and --y %s: give one", o.Figure, o.Y)
	case o.X != "":
		return "", runner.BadInputf("--x: not with --figure (the figure's x axis is the swept parameter)")
	case o.LogY != nil:
		return "", runner.BadInputf("--log-y, --lin-y: not with --figure (its axes are the experiment's)")
	}
	sums, _, err := readSummary(ctx, o)
	if err != nil {
		return "", err
	}
	legend, param, err := readLegend(ctx, o.Dir)
	if err != nil {
		return "", err
	}
	if param == "" {
		return "", runner.BadInputf("--figure %s: %s has no sweep (its scenario.yaml sweeps nothing): plot a column with --y", o.Figure, o.Dir)
	}
	tiers, deadlines, err := readFigureFacts(ctx, o.Dir)
	if err != nil {
		return "", err
	}
	if sums, err = selectPolicies(sums, o.Policies); err != nil {
		return "", err
	}
	figs := report.SweepFigures(sums, legend, param, tiers, report.ClassesOf(sums, deadlines))
	i := slices.IndexFunc(figs, func(f chart.Figure) bool { return f.File == o.Figure })
	if i < 0 {
		var names []string
		for _, f := range figs {
			names = append(names, f.File)
		}
		return "", runner.BadInputf("--figure %q: not a figure of %s (allowed: %s)", o.Figure, o.Dir, strings.Join(names, ", "))
	}
	f := figs[i]
	if o.Title != nil {
		f.Title = *o.Title
	}
	err = writeOut(o, func(folder chart.Folder) error {
		return f.DrawSized(folder, filepath.Base(o.Out), o.Format, f.Title != "", o.Caption, w, h)
	})
	if errors.Is(err, chart.ErrNoData) {
		return "", runner.BadInputf("--figure %s: no point to draw for the selected policies", o.Figure)
	}
	if err != nil {
		return "", err
	}
	runner.NoteWritten(o.Stdout, o.Out)
	return o.Out, nil
}

// readFigureFacts reads the tiers' names and the task classes that have a
// deadline from the folder's scenario.yaml (none without one).
func readFigureFacts(ctx context.Context, dir string) (tiers, deadlines []string, err error) {
	y, err := runner.ReadResult(ctx, filepath.Join(dir, "scenario.yaml"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var doc struct {
		Tiers []struct {
			Name string `yaml:"name"`
		} `yaml:"tiers"`
	}
	if err := yaml.Unmarshal(y, &doc); err != nil {
		return nil, nil, runner.BadInputf("%s: scenario.yaml: %w", dir, err)
	}
	for _, t := range doc.Tiers {
		tiers = append(tiers, t.Name)
	}
	if deadlines, err = report.ScenarioDeadlines(y); err != nil {
		return nil, nil, runner.BadInputf("%s: %w", dir, err)
	}
	return tiers, deadlines, nil
}
