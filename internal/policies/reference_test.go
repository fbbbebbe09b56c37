package policies

import (
	"os"
	"strings"
	"testing"
)

// TestReference checks that the reference covers the registry: every
// policy with a source file that exists, and every option with what its
// check allows.
func TestReference(t *testing.T) {
	refs, err := reference()
	if err != nil {
		t.Fatal(err)
	}
	if len(refs) != len(registry()) {
		t.Fatalf("%d policies in the reference, %d in the registry", len(refs), len(registry()))
	}
	for _, r := range refs {
		if _, err := os.Stat("../../" + r.Source); err != nil {
			t.Errorf("policy %s: source %s: %v", r.Name, r.Source, err)
		}
		for _, o := range r.Options {
			if o.Doc == "" || o.Allowed == "" {
				t.Errorf("policy %s option %s: meaning %q, allowed %q: want both", r.Name, o.Name, o.Doc, o.Allowed)
			}
		}
	}
	var b strings.Builder
	if err := WriteReference(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| `hybrid` | yes | yes |", "(../internal/policies/estimating.go)", "`threshold`: a number in [0, 1)", "| `d` | `power-of-d` |"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("reference lacks %q:\n%s", want, b.String())
		}
	}
}
