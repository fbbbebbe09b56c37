package scenario_test

import (
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/scenario"
)

// TestWarmupAuto: warmup takes auto in a file and through --set, keeps a
// count as the number it was, writes auto back as the word, and refuses
// another word, auto in duration mode and a negative count.
func TestWarmupAuto(t *testing.T) {
	const file = "tasks: 1000\narrivals: {rate: 10}\ntiers: [{name: local, kind: local, servers: 1, speed: 10}, {name: edge, kind: edge, servers: 1, speed: 10}]\npolicies: [jsq]\n"
	for _, tc := range []struct {
		yaml string
		sets []string
		auto bool
	}{
		{file + "warmup: auto\n", nil, true},
		{file, []string{"warmup=auto"}, true},
		{file + "warmup: auto\n", []string{"warmup=100"}, false},
	} {
		s, err := scenario.Parse("w.yaml", []byte(tc.yaml), tc.sets, catalog)
		if err != nil {
			t.Fatalf("%q %v: %v", tc.yaml, tc.sets, err)
		}
		if s.Warmup.Auto() != tc.auto {
			t.Errorf("%q %v: warmup %v, want auto %v", tc.yaml, tc.sets, s.Warmup, tc.auto)
		}
		out, err := s.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		want := "warmup: 100\n"
		if tc.auto {
			want = "warmup: auto\n"
		}
		if !strings.Contains(string(out), want) {
			t.Errorf("%q %v: marshalled without %q:\n%s", tc.yaml, tc.sets, want, out)
		}
	}
	for _, bad := range []struct{ yaml, want string }{
		{file + "warmup: often\n", `warmup: "often" is not allowed: want an integer or auto`},
		{file + "warmup: -1\n", "warmup: -1 is not allowed: must be ≥ 0 (unmeasured tasks) or auto"},
		{strings.Replace(file, "tasks: 1000", "duration: 100", 1) + "warmup: auto\n", "warmup: auto is not allowed in duration mode"},
	} {
		if _, err := scenario.Parse("w.yaml", []byte(bad.yaml), nil, catalog); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: %v, want an error with %q", bad.yaml, err, bad.want)
		}
	}
}
