package experiment

import (
	"context"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
)

// learner is a policy that takes feedback.
type learner struct{ done int }

func (l *learner) Decide(*dispatch.View) dispatch.Decision { return dispatch.Decision{} }
func (l *learner) Done(*dispatch.Completion)               { l.done++ }

// A policy's feedback is found through its capabilities, so that a wrapper
// (dispatch.Wrap), whose own type takes none, still passes on its inner
// policy's completions.
func TestStartFeedbackThroughCapabilities(t *testing.T) {
	var ps Programs
	inner := &learner{}
	wrapped := dispatch.Wrap(inner, inner.Decide)
	for _, pol := range []dispatch.Policy{inner, wrapped} {
		fb, err := ps.Start(context.Background(), nil, Job{}, 0, pol, nil)
		if err != nil {
			t.Fatal(err)
		}
		if fb == nil {
			t.Fatalf("%T: no feedback, want the inner policy's", pol)
		}
		fb.Done(&dispatch.Completion{})
	}
	if inner.done != 2 {
		t.Errorf("inner policy told of %d completions, want 2", inner.done)
	}
}
