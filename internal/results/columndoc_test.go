package results

import (
	"strings"
	"testing"
)

// TestColumnReference checks the reference against the schema: every
// column of a full runs.csv and summary.csv is in it, each pattern names
// its columns in the three-tier example, and every row has a meaning.
func TestColumnReference(t *testing.T) {
	refs, err := ColumnReference()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range refs {
		if r.Doc == "" || r.When == "" {
			t.Errorf("column %s: meaning %q, present %q: want both", r.Name, r.Doc, r.When)
		}
	}
	var b strings.Builder
	if err := WriteColumnReference(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"`share_<tier>`, e.g. `share_local`, `share_edge`, `share_cloud`", "`slo_miss_<ms>ms`, e.g. `slo_miss_50ms`, `slo_miss_100ms`",
		"`energy_<tier>_j`, e.g. `energy_local_j`", "`mean_latency_s_ci95`", "| `valid` |"} {
		if !strings.Contains(out, want) {
			t.Errorf("reference lacks %q:\n%s", want, out)
		}
	}
}
