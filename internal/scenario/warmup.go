package scenario

import (
	"math"
	"reflect"
	"strconv"

	"github.com/offload-sim/offload/internal/schema"
	"gopkg.in/yaml.v3"
)

// WarmupTasks is warmup: the unmeasured tasks that arrive first, or
// WarmupAuto, where each run chooses its own from its output by MSER-5
// (internal/stats): the run then has tasks arrivals, and the first
// warmup_tasks of them (at most half) go unmeasured.
type WarmupTasks int

// WarmupAuto is `warmup: auto`: a value no number decodes to, so that a
// negative count stays an error (UnmarshalYAML).
const WarmupAuto WarmupTasks = math.MinInt

const warmupShape = "an integer or auto"

var warmupType = reflect.TypeFor[WarmupTasks]()

// Auto reports whether each run chooses its own warm-up.
func (w WarmupTasks) Auto() bool { return w == WarmupAuto }

// Fixed is the warm-up every run takes before its first measured task: 0
// under auto, where the run itself decides.
func (w WarmupTasks) Fixed() int { return max(int(w), 0) }

func (w WarmupTasks) String() string {
	if w.Auto() {
		return "auto"
	}
	return strconv.Itoa(int(w))
}

// walkWarmup checks auto as a string, anything else as an int.
func walkWarmup(w *schema.Walker, n *yaml.Node, segs []string) bool {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" {
		if n.Value != "auto" {
			w.BadValue(n, segs, "%q is not allowed: want %s (unmeasured tasks; auto: each run's own, by MSER-5)", n.Value, warmupShape)
		}
		return true
	}
	w.Scalar(n, reflect.TypeFor[int](), segs)
	return true
}

// UnmarshalYAML reads auto or a number (the walk has checked which).
func (w *WarmupTasks) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode && n.Value == "auto" {
		*w = WarmupAuto
		return nil
	}
	var x int
	err := n.Decode(&x)
	*w = WarmupTasks(max(x, math.MinInt+1))
	return err
}

// MarshalYAML writes auto as the word, a count as the number it always was.
func (w WarmupTasks) MarshalYAML() (any, error) {
	if w.Auto() {
		return "auto", nil
	}
	return int(w), nil
}
