package policies

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/extpolicy"
)

// NameExec is the policy that runs an external program
// (docs/policy-protocol.md).
const NameExec = "exec"

// defaultExecTimeout is an exec entry's timeout when it gives none.
const defaultExecTimeout = 10 * time.Second

// maxExecTimeout bounds an exec entry's timeout: a longer wait per answer
// would let a hung program hold a run for hours.
const maxExecTimeout = time.Hour

// execSpec is `{name: exec, as: LABEL, command: [..], timeout: 10s}`: a
// program speaking the protocol decides. It is not one of the baselines
// (it needs a command), and the policy Make returns has not started its
// program: the caller starts it per run (extpolicy.Policy.Start) and closes
// it after.
func execSpec() Spec {
	return Spec{Name: NameExec, Program: true,
		summary: "an external program deciding over line-delimited JSON (docs/policy-protocol.md); needs command",
		options: []option{
			{Name: "command", Doc: "the program and its arguments, run in the scenario file's folder, e.g. [python3, my_policy.py]", Check: checkCommand},
			{Name: "timeout", Doc: "the longest wait for one answer, e.g. 10s (the default) or 500ms; at most 1h", Check: checkTimeout},
		},
		construct: buildExec}
}

func buildExec(b Build) (dispatch.Policy, error) {
	cmd, _ := b.options["command"].([]string)
	if len(cmd) == 0 {
		return nil, errors.New("option command is required: the program and its arguments, e.g. command: [python3, my_policy.py]")
	}
	timeout := defaultExecTimeout
	if d, ok := b.options["timeout"].(time.Duration); ok {
		timeout = d
	}
	// The program's seed comes from the policy's own stream, so that it
	// depends on the master seed and the replicate only (53 bits: exact in
	// any language's JSON numbers).
	return extpolicy.New(extpolicy.Config{Command: cmd, Timeout: timeout, Tiers: b.Tiers, Seed: b.Rand.Uint64() >> 11})
}

// checkCommand reads a non-empty list of non-empty strings.
func checkCommand(v any) (any, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s is not allowed: want a list, the program and its arguments, e.g. [python3, my_policy.py]", describeValue(v))
	}
	if len(list) == 0 {
		return nil, errors.New("[] is not allowed: want the program and its arguments, e.g. [python3, my_policy.py]")
	}
	cmd := make([]string, len(list))
	for i, el := range list {
		s, ok := el.(string)
		if !ok {
			return nil, fmt.Errorf("element %d is %s, not a string: quote it (\"%v\") so that it reaches the program as written", i, describeValue(el), el)
		}
		if s == "" || strings.ContainsRune(s, 0) {
			return nil, fmt.Errorf("element %d is %q: want a non-empty string without NUL", i, s)
		}
		cmd[i] = s
	}
	return cmd, nil
}

// checkTimeout reads a Go duration ("10s", "500ms") or a number of
// seconds, in (0, maxExecTimeout].
func checkTimeout(v any) (any, error) {
	var d time.Duration
	switch x := v.(type) {
	case string:
		var err error
		if d, err = time.ParseDuration(x); err != nil {
			return nil, fmt.Errorf("%q is not allowed: want a duration such as 10s or 500ms, or a number of seconds", x)
		}
	case int:
		d = time.Duration(x) * time.Second
	case float64:
		if math.IsNaN(x) || x > maxExecTimeout.Seconds() {
			return nil, fmt.Errorf("%v is out of range: must be in (0, %v]", x, maxExecTimeout)
		}
		d = time.Duration(x * float64(time.Second))
	default:
		return nil, fmt.Errorf("%s is not allowed: want a duration such as 10s or 500ms, or a number of seconds", describeValue(v))
	}
	if d <= 0 || d > maxExecTimeout {
		return nil, fmt.Errorf("%v is out of range: must be in (0, %v]", v, maxExecTimeout)
	}
	return d, nil
}
