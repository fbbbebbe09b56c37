package htmlreport

import (
	"bytes"
	"strings"
	"testing"
	"testing/fstest"
)

// classFolder is a sweep folder whose summary has, with classes, each
// class's columns; deadline is the scenario's class keys.
func classFolder(classes bool, deadline string) fstest.MapFS {
	head := "experiment,param,value,policy,runs,mean_latency_s,mean_latency_s_ci95,unstable"
	rows := []string{"s,arrivals.rate,10,hybrid,2,0.05,0.001,0", "s,arrivals.rate,10,jsq-s,2,0.04,0.001,0",
		"s,arrivals.rate,100,hybrid,2,0.07,0.002,0", "s,arrivals.rate,100,jsq-s,2,0.09,0.002,0"}
	scenario := "name: s\ntiers:\n  - {name: edge, kind: edge}\npolicies: [hybrid, jsq-s]\nsweep: {param: arrivals.rate, values: [10, 100]}\n"
	if classes {
		head = "experiment,param,value,policy,runs,mean_latency_s,mean_latency_s_ci95," +
			"mean_latency_class_fast,mean_latency_class_fast_ci95,p95_latency_class_fast,p95_latency_class_fast_ci95,deadline_miss_class_fast,deadline_miss_class_fast_ci95," +
			"mean_latency_class_slow,mean_latency_class_slow_ci95,p95_latency_class_slow,p95_latency_class_slow_ci95,deadline_miss_class_slow,deadline_miss_class_slow_ci95,unstable"
		rows = []string{"s,arrivals.rate,10,hybrid,2,0.05,0.001,0.01,0.001,0.02,0.002,0.05,0.01,0.1,0.01,0.3,0.02,0,0,0",
			"s,arrivals.rate,10,jsq-s,2,0.04,0.001,0.011,0.001,0.021,0.002,0.06,0.01,0.09,0.01,0.28,0.02,0,0,0",
			"s,arrivals.rate,100,hybrid,2,0.07,0.002,0.02,0.001,0.04,0.002,0.1,0.01,0.2,0.01,0.5,0.02,0,0,0",
			"s,arrivals.rate,100,jsq-s,2,0.09,0.002,0.03,0.001,0.05,0.002,0.2,0.01,0.25,0.01,0.6,0.02,0.01,0,0"}
		scenario += "classes:\n  - {name: fast, share: 0.5" + deadline + "}\n  - {name: slow, share: 0.5}\n"
	}
	return fstest.MapFS{
		"manifest.json": {Data: []byte(`{"tool":"offload","version":"v1","command":["offload","run"],"experiment":"s","seed":1,"seeds":2,"scenario_sha256":"abc","started":"2026-01-01T00:00:00Z","complete":true,"runs":8,"runs_done":8}`)},
		"scenario.yaml": {Data: []byte(scenario)},
		"summary.csv":   {Data: []byte(head + "\n" + strings.Join(rows, "\n") + "\n")},
	}
}

// The "Task classes" section: with classes, a table of each class's mean,
// P95 and deadline misses and the per-class figures (misses only when some
// class has a deadline); without, no section and no per-class figure.
func TestClassSection(t *testing.T) {
	for _, c := range []struct {
		name             string
		classes          bool
		deadline         string
		section, misses  bool
		figures, classFs int
	}{
		{"no classes", false, "", false, false, 1, 0},
		{"classes without deadline", true, "", true, false, 3, 2},
		{"a class with a deadline", true, ", deadline: 0.1", true, true, 4, 3},
	} {
		var b bytes.Buffer
		if err := Write(&b, classFolder(c.classes, c.deadline), Options{}); err != nil {
			t.Fatal(err)
		}
		page := b.String()
		if got := strings.Contains(page, `id="classes"`); got != c.section {
			t.Errorf("%s: a Task classes section %v, want %v", c.name, got, c.section)
		}
		if got := strings.Contains(page, "Deadline misses per task class"); got != c.misses {
			t.Errorf("%s: a deadline-miss figure %v, want %v", c.name, got, c.misses)
		}
		if n := strings.Count(page, "<svg"); n != c.figures {
			t.Errorf("%s: %d figures, want %d", c.name, n, c.figures)
		}
		if n := strings.Count(page, "per task class vs arrival rate.</strong>"); n != c.classFs {
			t.Errorf("%s: %d per-class figures, want %d", c.name, n, c.classFs)
		}
		if !c.classes {
			continue
		}
		for _, want := range []string{"fast: mean latency (s)", "slow: P95 latency (s)", "fast: missed deadline", "0.01<span class=\"ci\"> ± 0.001</span>"} {
			if !strings.Contains(page, want) {
				t.Errorf("%s: the class table lacks %q", c.name, want)
			}
		}
		// The per-class figures sit in their section, before the others.
		if i, j := strings.Index(page, "Mean latency per task class"), strings.Index(page, `id="figures"`); i < 0 || i > j {
			t.Errorf("%s: the per-class figure is not in the Task classes section", c.name)
		}
	}
}
