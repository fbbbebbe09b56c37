package schema

import (
	"reflect"

	"gopkg.in/yaml.v3"
)

// Numbers is a list of numbers that a document may also write as one
// number (latency: 0.1 for latency: [0.1]); it is written back as a list.
type Numbers []float64

// UnmarshalYAML accepts a number or a list of numbers.
func (t *Numbers) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode && !IsNull(n) {
		var x float64
		if err := n.Decode(&x); err != nil {
			return err
		}
		*t = Numbers{x}
		return nil
	}
	var xs []float64
	if err := n.Decode(&xs); err != nil {
		return err
	}
	*t = xs
	return nil
}

// NumbersCustom is the Custom of Numbers: the walk checks a scalar as one
// number, and a list as any list of numbers.
func NumbersCustom() Custom {
	return Custom{Type: reflect.TypeFor[Numbers](), Shape: "a number or a list of numbers", Walk: walkNumbers}
}

func walkNumbers(w *Walker, n *yaml.Node, segs []string) bool {
	if n.Kind != yaml.ScalarNode || IsNull(n) {
		return false
	}
	w.Scalar(n, reflect.TypeFor[float64](), segs)
	return true
}
