package policies

import (
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/workload"
)

// The policy reference of docs/policies.md, written from the registry so
// that the manual lists every policy, option and source file the code has:
// a test fails when the page is stale.

// ref is one registered policy as the reference shows it.
type ref struct {
	Name     string
	Paper    bool   // in the paper's default set
	Predicts bool   // its decisions carry a predicted wait (a mape column)
	Summary  string // the registry's one line
	Options  []optionRef
	Source   string // the file of its Decide method, from the module root
}

// optionRef is one option an entry of a policy may set.
type optionRef struct {
	Name, Doc string
	Allowed   string // what its check accepts, from the check itself
}

// reference lists the registry's policies in registry order, each built
// once on a three-tier continuum to find the file of its Decide method
// (building starts no program).
func reference() ([]ref, error) {
	var refs []ref
	for _, s := range registry() {
		r := ref{Name: s.Name, Paper: s.paper, Predicts: s.predicts, Summary: s.summary}
		for _, o := range s.options {
			allowed, err := allowedBy(o)
			if err != nil {
				return nil, fmt.Errorf("policy %s: %w", s.Name, err)
			}
			r.Options = append(r.Options, optionRef{Name: o.Name, Doc: o.Doc, Allowed: allowed})
		}
		src, err := sourceOf(s)
		if err != nil {
			return nil, err
		}
		r.Source = src
		refs = append(refs, r)
	}
	return refs, nil
}

// allowedBy reads what an option accepts from its own check: a value of
// no option's type (nil) is refused with a message that says what is
// wanted ("null is not allowed: want a number in [0, 1]"); a mapping's keys
// are asked the same way, one at a time.
func allowedBy(o option) (string, error) {
	want, err := wanted(o.Check, nil)
	if err != nil {
		return "", fmt.Errorf("option %s: %w", o.Name, err)
	}
	keys, isMap := strings.CutPrefix(want, "a mapping (")
	if !isMap {
		return want, nil
	}
	var parts []string
	for _, k := range strings.Split(strings.TrimSuffix(keys, ")"), ", ") {
		w, err := wanted(o.Check, map[string]any{k: nil})
		if err != nil {
			return "", fmt.Errorf("option %s.%s: %w", o.Name, k, err)
		}
		parts = append(parts, "`"+k+"`: "+w)
	}
	return "a mapping: " + strings.Join(parts, "; "), nil
}

// wanted is what check's message for v says is allowed.
func wanted(check func(any) (any, error), v any) (string, error) {
	_, err := check(v)
	if err == nil {
		return "", fmt.Errorf("its check accepts %v, so it cannot say what it wants", v)
	}
	msg := err.Error()
	if i := strings.Index(msg, "is not allowed: "); i >= 0 {
		msg = msg[i+len("is not allowed: "):]
	} else {
		return "", fmt.Errorf("its check's message %q does not say what is allowed", msg)
	}
	for _, p := range []string{"want ", "must be "} {
		msg = strings.TrimPrefix(msg, p)
	}
	return msg, nil
}

// sourceOf is the file of the Decide method of the policy s builds, from
// the module's root (internal/...).
func sourceOf(s Spec) (string, error) {
	b := referenceBuild()
	if s.Program {
		b.options = values{"command": []string{"true"}}
	}
	pol, err := s.construct(b)
	if err != nil {
		return "", fmt.Errorf("policy %s: building it for the reference: %w", s.Name, err)
	}
	m, ok := reflect.TypeOf(pol).MethodByName("Decide")
	if !ok {
		return "", fmt.Errorf("policy %s: %T has no Decide method", s.Name, pol)
	}
	file, _ := runtime.FuncForPC(m.Func.Pointer()).FileLine(m.Func.Pointer())
	file = strings.ReplaceAll(file, `\`, "/")
	i := strings.LastIndex(file, "/internal/")
	if i < 0 {
		return "", fmt.Errorf("policy %s: Decide is in %s, outside the module's internal/", s.Name, file)
	}
	return file[i+1:], nil
}

// referenceBuild is the default continuum (local 1 × 10, edge 4 × 25 at
// 5 ms, cloud 16 × 50 at 60 ms; Pareto sizes of mean 1) at 60 tasks/s.
func referenceBuild() Build {
	sizes, err := workload.New("pareto", 1, 2.5, 0)
	if err != nil {
		panic(err) // constant arguments
	}
	tier := func(name string, k dispatch.Kind, c int, s, d float64) dispatch.Tier {
		return dispatch.Tier{Name: name, Kind: k, Servers: c, Speed: s, Mu: s, MeanDelay: d, Cs2: sizes.Cs2()}
	}
	return Build{
		Tiers:  []dispatch.Tier{tier("local", dispatch.Local, 1, 10, 0), tier("edge", dispatch.Edge, 4, 25, 0.005), tier("cloud", dispatch.Cloud, 16, 50, 0.06)},
		Params: DefaultParams(),
		Rand:   rand.New(rand.NewPCG(1, 2)),
		Sizes:  sizes,
		Rate:   60,
	}
}

// WriteReference writes the policy reference as markdown: a table of the
// policies (name, default set, rule, source), then a table of the options,
// each with the policies that take it.
func WriteReference(w io.Writer) error {
	refs, err := reference()
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("| policy | default set | predicts | rule | options | code |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, r := range refs {
		names := make([]string, len(r.Options))
		for i, o := range r.Options {
			names[i] = "`" + o.Name + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | [%s](../%s) |\n", r.Name, yes(r.Paper), yes(r.Predicts),
			mdCell(r.Summary), strings.Join(names, ", "), strings.TrimPrefix(r.Source, "internal/"), r.Source)
	}
	// Options shared by several policies (the estimator's) are one row.
	type row struct {
		opt   optionRef
		users []string
	}
	var rows []row
	for _, r := range refs {
		for _, o := range r.Options {
			i := slices.IndexFunc(rows, func(x row) bool { return x.opt == o })
			if i < 0 {
				rows = append(rows, row{opt: o})
				i = len(rows) - 1
			}
			rows[i].users = append(rows[i].users, "`"+r.Name+"`")
		}
	}
	b.WriteString("\n| option | policies | meaning | allowed |\n| --- | --- | --- | --- |\n")
	for _, x := range rows {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", x.opt.Name, strings.Join(x.users, ", "), mdCell(x.opt.Doc), mdCell(x.opt.Allowed))
	}
	_, err = io.WriteString(w, b.String())
	return err
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return ""
}

// mdCell escapes what would end a markdown table cell.
func mdCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
