package scenario_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/scenario"
)

const fixtures = "../../testdata/scenarios"

// fixtureFiles lists the fixtures matching a glob, failing if there are none.
func fixtureFiles(t testing.TB, glob string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(fixtures, glob))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures %s: %v", glob, err)
	}
	return files
}

func readFixture(t testing.TB, file string) []byte {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestGoodFixtures(t *testing.T) {
	for _, file := range fixtureFiles(t, "*.good.yaml") {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			s, err := scenario.Parse(name, readFixture(t, file), nil, catalog)
			if err != nil {
				t.Fatalf("Parse(%s): %v", name, err)
			}
			if _, err := s.Cells(); err != nil {
				t.Errorf("Cells(): %v", err)
			}
			out, err := s.Marshal()
			if err != nil {
				t.Fatalf("Marshal(): %v", err)
			}
			again, err := scenario.Parse("resolved.yaml", out, nil, catalog)
			if err != nil {
				t.Fatalf("Parse(Marshal()): %v\n%s", err, out)
			}
			if !reflect.DeepEqual(again, s) {
				t.Errorf("Parse(Marshal()) = %+v, want %+v", again, s)
			}
			if got, want := again.Hash(), s.Hash(); got != want || len(got) != 64 {
				t.Errorf("Hash() after round trip = %q, want %q (64 hex digits)", got, want)
			}
		})
	}
}

// TestBadFixtures checks that each *.bad.yaml fails with every message its
// "# want: " lines name.
func TestBadFixtures(t *testing.T) {
	for _, file := range fixtureFiles(t, "*.bad.yaml") {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			data := readFixture(t, file)
			wants := wantLines(data)
			if len(wants) == 0 {
				t.Fatalf("%s has no # want: lines", name)
			}
			s, err := scenario.Parse(name, data, nil, catalog)
			if err == nil {
				t.Fatalf("Parse(%s) = %+v, want an error", name, s)
			}
			var errs scenario.Errors
			if !errors.As(err, &errs) {
				t.Fatalf("Parse(%s) error is %T, want scenario.Errors", name, err)
			}
			for _, want := range wants {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("Parse(%s) error lacks %q; got:\n%v", name, want, err)
				}
			}
			if len(errs) < len(wants) {
				t.Errorf("Parse(%s) gave %d errors, want at least %d:\n%v", name, len(errs), len(wants), err)
			}
		})
	}
}

func wantLines(data []byte) []string {
	var wants []string
	for line := range bytes.Lines(data) {
		if w, ok := strings.CutPrefix(strings.TrimRight(string(line), "\n"), "# want: "); ok {
			wants = append(wants, w)
		}
	}
	return wants
}

// TestParseSets checks that overrides apply in order, are validated with the
// file, and that their errors carry no file position.
func TestParseSets(t *testing.T) {
	data := readFixture(t, filepath.Join(fixtures, "design-example.good.yaml"))
	tests := []struct {
		name  string
		sets  []string
		check func(*scenario.Scenario) bool
		want  []string // substrings of the error; nil for success
	}{
		{name: "in order", sets: []string{"tiers.edge.servers=8", "tiers.1.servers=9"},
			check: func(s *scenario.Scenario) bool { return s.Tiers[1].Servers == 9 }},
		{name: "switch to duration mode", sets: []string{"tasks=0", "warmup=0", "duration=600", "warmup_time=60"},
			check: func(s *scenario.Scenario) bool { return !s.MeasuredByTasks() && s.Duration == 600 }},
		{name: "bad value and bad path together", sets: []string{"tiers.edge.servers=2.5", "tiers.fog.speed=1"},
			want: []string{`--set tiers.edge.servers: "2.5" is not allowed: want an integer`,
				`--set tiers.fog.speed: no tier "fog" in tiers (allowed: local, edge, cloud, or an index 0 to 2)`}},
		{name: "no equals sign", sets: []string{"seeds"}, want: []string{"--set seeds: want path=value"}},
		{name: "set makes it invalid: the flag is blamed", sets: []string{"tiers.edge.servers=0"},
			want: []string{"--set tiers[1] (edge).servers: 0 is not allowed: must be ≥ 1"}},
		{name: "both modes", sets: []string{"duration=60"},
			want: []string{"tasks: 200000 is not allowed with duration 60"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := scenario.Parse("design-example.good.yaml", data, tt.sets, catalog)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Parse with %q: %v", tt.sets, err)
				}
				if !tt.check(s) {
					t.Errorf("Parse with %q gave %+v", tt.sets, s)
				}
				return
			}
			if err == nil {
				t.Fatalf("Parse with %q succeeded, want errors %q", tt.sets, tt.want)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Parse with %q: error lacks %q; got:\n%v", tt.sets, w, err)
				}
			}
		})
	}
}

func TestParseEmpty(t *testing.T) {
	_, err := scenario.Parse("empty.yaml", nil, []string{"tasks=10", "arrivals.rate=1", "tiers=[{name: e, kind: edge, servers: 1, speed: 1}]"}, catalog)
	if err != nil {
		t.Fatalf("Parse(empty file, sets) = %v, want the defaults plus the sets to be valid", err)
	}
}
