package policies

import (
	"testing"

	"github.com/offload-sim/offload/internal/estimators"
)

// The ca2 option, or Params.OnlineCa2, selects the estimator's online C_a²;
// an entry's option overrides the scenario-wide parameter either way.
func TestCa2Option(t *testing.T) {
	for _, c := range []struct {
		online bool
		opt    any
		want   estimators.Ca2Mode
	}{
		{false, nil, estimators.Ca2Poisson},
		{false, "online", estimators.Ca2Online},
		{true, nil, estimators.Ca2Online},
		{true, "poisson", estimators.Ca2Poisson},
	} {
		b := fullBuild(threeTiers(), 1)
		b.Params.OnlineCa2 = c.online
		e := Entry{Name: NameHybrid}
		if c.opt != nil {
			e.Options = map[string]any{"ca2": c.opt}
		}
		p, err := Make(e, b)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.(*estimating).est.Ca2(); got != c.want {
			t.Errorf("params online %v, option %v: mode %v, want %v", c.online, c.opt, got, c.want)
		}
	}
	if probs := Check(NameHybrid, map[string]any{"ca2": "renewal"}, []string{"local", "edge", "cloud"}); len(probs) != 1 {
		t.Errorf("ca2: renewal accepted: %v", probs)
	}
}
