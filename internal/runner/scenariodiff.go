package runner

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/offload-sim/offload/internal/store"
)

// maxScenarioFile bounds the scenario.yaml read to explain a refusal: a
// resolved scenario is a few kB, so anything larger is not one.
const maxScenarioFile = 1 << 20

// explainRefusal adds to a refusal of a folder of another scenario which of
// the scenario's top-level keys differ between the folder's scenario.yaml
// and resolved (the new run's): "another scenario" alone leaves the user to
// diff two YAML files by eye. Any other error, or a folder whose
// scenario.yaml cannot be read, is returned as it is.
func explainRefusal(err error, dir string, resolved []byte) error {
	var ref *store.Refusal
	if !errors.As(err, &ref) || (ref.Kind != store.OtherScenario && ref.Kind != store.ResumeMismatch) {
		return err
	}
	old, rerr := store.ReadRegular(filepath.Join(dir, "scenario.yaml"), maxScenarioFile)
	if rerr != nil {
		return err
	}
	keys := scenarioDiff(old, resolved)
	if len(keys) == 0 {
		return err
	}
	return BadInput(fmt.Errorf("%w; the scenarios differ in: %s", ref, strings.Join(keys, ", ")))
}

// scenarioDiff lists, sorted, the top-level keys whose values differ
// between two scenario YAML documents (a key in one only counts); nil if
// either does not parse as a mapping.
func scenarioDiff(a, b []byte) []string {
	var ma, mb map[string]any
	if yaml.Unmarshal(a, &ma) != nil || yaml.Unmarshal(b, &mb) != nil || ma == nil || mb == nil {
		return nil
	}
	var keys []string
	for k, v := range ma {
		if w, ok := mb[k]; !ok || !reflect.DeepEqual(v, w) {
			keys = append(keys, k)
		}
	}
	for k := range mb {
		if _, ok := ma[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}
