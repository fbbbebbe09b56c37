package report

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/scenario"
)

// ScenarioLegend reads, from a results folder's scenario.yaml (the resolved
// scenario), what a re-plot needs to draw the figures as the experiment
// did: the policy entries' labels and the registry policy each runs (an
// entry is a name, or a mapping with name and as), and the swept
// parameter's path ("" without a sweep). It reads only those keys, so that
// a folder re-plots without the scenario package's validation, which would
// need the policy registry and refuse a file an older offload wrote.
func ScenarioLegend(data []byte) (chart.Legend, string, error) {
	var doc struct {
		Policies []yaml.Node `yaml:"policies"`
		Sweep    *struct {
			Param string `yaml:"param"`
		} `yaml:"sweep"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return chart.Legend{}, "", fmt.Errorf("scenario.yaml: %w", err)
	}
	var l chart.Legend
	for _, n := range doc.Policies {
		var name, label string
		switch n.Kind {
		case yaml.ScalarNode:
			name = n.Value
		case yaml.MappingNode:
			var e struct {
				Name string `yaml:"name"`
				As   string `yaml:"as"`
			}
			if err := n.Decode(&e); err != nil {
				return chart.Legend{}, "", fmt.Errorf("scenario.yaml line %d: %w", n.Line, err)
			}
			name, label = e.Name, e.As
		default:
			return chart.Legend{}, "", fmt.Errorf("scenario.yaml line %d: a policy entry is a name or a mapping", n.Line)
		}
		if label == "" {
			label = name
		}
		l.Labels, l.Policies = append(l.Labels, label), append(l.Policies, name)
	}
	param := ""
	if doc.Sweep != nil {
		param = doc.Sweep.Param
	}
	return l, param, nil
}

// ParamLabel names a sweep parameter with its unit, for axis titles, from
// the scenario schema (scenario.ParamLabel): "arrival rate (tasks/s)",
// "edge servers", "observation period T (s)".
func ParamLabel(param string) string {
	l, u := scenario.ParamLabel(param)
	if u == "" {
		return l
	}
	return l + " (" + u + ")"
}

// MetricLabel names a summary.csv column for an axis or a table heading:
// the headline columns by their meaning and unit, share_ and util_ columns
// by their tier, anything else by its own name.
func MetricLabel(metric string) string {
	known := map[string]string{
		"tasks": "measured tasks", "mean_latency_s": "mean latency (s)", "p50_latency_s": "median latency (s)",
		"p95_latency_s": "P95 latency (s)", "p99_latency_s": "P99 latency (s)", "max_latency_s": "largest latency (s)",
		"mean_wait_s": "mean wait (s)", "mean_large_s": "mean latency of large tasks (s)", "p95_large_s": "P95 latency of large tasks (s)",
		results.ColMAPE: "MAPE (%)", "decision_ns": "decision cost (ns)", "mae_wait_s": "MAE of the wait (s)",
	}
	if l, ok := known[metric]; ok {
		return l
	}
	if t, ok := strings.CutPrefix(metric, "share_"); ok {
		return "share of tasks sent to " + t
	}
	if t, ok := strings.CutPrefix(metric, "util_"); ok {
		return "offered load of " + t
	}
	return metric
}

// FileStem is the file name a metric's figure and comparison take: the
// column without its "_s" unit suffix, as the experiments name theirs
// (mean_latency_s → mean_latency.png).
func FileStem(metric string) string { return strings.TrimSuffix(metric, "_s") }
