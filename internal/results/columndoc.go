package results

import (
	"fmt"
	"io"
	"reflect"
	"regexp"
	"slices"
	"strings"
)

// The reference of runs.csv's and summary.csv's columns, written from the
// schema itself (RunColumns and the key columns here) so that the
// manual cannot drift from the files: docs/outputs.md holds its output
// between generated markers, `offload columns` prints it, and a test fails
// when the page is stale.

// keyDocs are the meanings of the columns that are not metrics: a run's
// key, the summaries' count and mark, the emulation's accounting. Every
// such column of a header has one; WriteColumnReference fails on one
// without.
var keyDocs = map[string]colDoc{
	"experiment": {"", "the scenario's `name`"},
	"param":      {"", "the swept `--set` path; empty without a sweep"},
	"value":      {"", "the swept value, in the swept field's unit; empty without a sweep"},
	"policy":     {"", "the policy entry's label (its `as`, else its name)"},
	"seed":       {"", "the replicate, 0-based (runs.csv only: its streams derive from the master seed and this number)"},
	"runs":       {"count", "replicates aggregated in the row (summary.csv only)"},
	"unstable":   {"", "1 when some tier's offered load (`util_<tier>`) is shown above 1 by a one-sided test over the replicates, corrected for the number of tiers ([the unstable flag](#the-unstable-flag)), else 0 (summary.csv only): the cell's latencies then grow with the run length"},
	"sent":       {"count", "requests the emulation's client sent (emulation only)"},
	"completed":  {"count", "requests answered (emulation only)"},
	"rejected":   {"count", "requests a full tier queue refused with 503 (emulation only)"},
	"failed":     {"count", "requests that failed, timed out or were not sent (emulation only); sent = completed + rejected + failed"},
	"valid":      {"", "0 when the run's failed/sent passed `--max-failures` (emulation only); such a run is left out of summary.csv"},
}

type colDoc struct{ unit, doc string }

// layoutConditions says when each optional part of Layout adds its
// columns, by the name of the Layout field that asks for them. A bool field
// of Layout missing here fails WriteColumnReference, so that a new kind of
// optional column cannot go undocumented.
var layoutConditions = map[string]string{
	"SLO":        "with `slo:` thresholds, two per threshold",
	"Breakdown":  "with `breakdown: true`, one per tier",
	"Sketch":     "when a run of the plan may measure more than the exact limit",
	"Energy":     "when a tier models energy (`power`, `tx_energy`, `rx_energy`)",
	"Dynamic":    "when a tier has `episodes`, `slowdowns` or `failures`, or the scenario a `timeout`, `retries` or `cancel_on_timeout`",
	"WarmupAuto": "with `warmup: auto`",
	"Buffer":     "when a tier has a `buffer`",
	"Patience":   "when the scenario or a class has a `patience`",
	"Classes":    "with `classes`, three per class",
	"Batches":    "with `--batches K`",
}

// The example layout of the reference: the default continuum's tiers and
// two SLO thresholds.
var (
	exampleTiers = []string{"local", "edge", "cloud"}
	exampleSLO   = []float64{0.05, 0.1}
)

// tierPattern stands for a tier's name in a column pattern, classPattern
// for a class's.
const (
	tierPattern  = "<tier>"
	classPattern = "<class>"
)

// exampleClasses are the example layout's task classes.
var exampleClasses = []string{"interactive", "batch"}

// ColumnRef is one row of the column reference: a column, or a pattern of
// columns (share_<tier>) with its names in the example layout.
type ColumnRef struct {
	Name     string   // the column, or its pattern
	Examples []string // the pattern's columns in the example layout; nil for a single column
	Unit     string   // "s", "%", "ns", "J", "count", or "" for fractions, flags and text
	When     string   // when a runs.csv has it
	Doc      string
}

// ColumnReference lists runs.csv's columns in file order, with every
// optional part of the layout switched on: first the run's key, then the
// metrics of RunColumns, then the emulation's accounting.
func ColumnReference() ([]ColumnRef, error) {
	full, conds, err := fullLayout()
	if err != nil {
		return nil, err
	}
	var refs []ColumnRef
	for _, k := range runKeys {
		d, ok := keyDocs[k]
		if !ok {
			return nil, fmt.Errorf("runs.csv column %s has no meaning in results.keyDocs", k)
		}
		refs = append(refs, ColumnRef{Name: k, Unit: d.unit, When: "always", Doc: d.doc})
	}
	pattern := full
	pattern.Tiers = []string{tierPattern}
	example := full
	example.Tiers, example.Classes = exampleTiers, exampleClasses
	exNames := Names(RunColumns(example))
	matched := make([]bool, len(exNames))
	for _, c := range RunColumns(pattern) {
		ref := ColumnRef{Name: c.Name, Unit: unitOf(c), When: conds[c.Name], Doc: c.Doc}
		if s := ms(ref.Name); s != "" { // an SLO threshold's column: its pattern
			ref.Name = strings.Replace(ref.Name, s, "<ms>", 1)
			ref.Doc = strings.Replace(ref.Doc, s+" ms", "<ms> ms", 1)
		}
		if slices.ContainsFunc(refs, func(r ColumnRef) bool { return r.Name == ref.Name }) {
			continue // the second SLO threshold's columns: the pattern is there
		}
		if strings.Contains(ref.Name, "<") {
			re := regexp.MustCompile("^" + strings.NewReplacer(tierPattern, "("+strings.Join(exampleTiers, "|")+")", classPattern, "("+strings.Join(exampleClasses, "|")+")", "<ms>", `[0-9.]+`).Replace(regexp.QuoteMeta(ref.Name)) + "$")
			for i, n := range exNames {
				if re.MatchString(n) {
					ref.Examples = append(ref.Examples, n)
					matched[i] = true
				}
			}
			if len(ref.Examples) == 0 {
				return nil, fmt.Errorf("column pattern %s matches no column of the example layout", ref.Name)
			}
		} else if i := slices.Index(exNames, ref.Name); i >= 0 {
			matched[i] = true
		}
		if ref.When == "" {
			ref.When = "always"
			if strings.Contains(ref.Name, tierPattern) {
				ref.When = "always, one per tier"
			}
		}
		refs = append(refs, ref)
	}
	for i, ok := range matched {
		if !ok {
			return nil, fmt.Errorf("runs.csv column %s of the example layout is in no row of the reference", exNames[i])
		}
	}
	for _, k := range accountingColumns {
		d, ok := keyDocs[k]
		if !ok {
			return nil, fmt.Errorf("emulation column %s has no meaning in results.keyDocs", k)
		}
		refs = append(refs, ColumnRef{Name: k, Unit: d.unit, When: "emulation only, last", Doc: d.doc})
	}
	return refs, nil
}

// ms is the threshold part of an SLO column of the example layout's
// thresholds ("50" of slo_miss_50ms), or "".
func ms(name string) string {
	for _, x := range exampleSLO {
		m := Millis(x)
		if name == SLOMissCol(x) || name == SLOMissLargeCol(x) {
			return m
		}
	}
	return ""
}

// fullLayout is Layout with every optional part on (the example
// SLO thresholds for SLO), and the condition under which each column of it
// appears, by column name: the columns a part adds to the bare layout.
func fullLayout() (Layout, map[string]string, error) {
	base := Layout{Tiers: []string{tierPattern}}
	bare := Names(RunColumns(base))
	full := base
	conds := map[string]string{}
	lt := reflect.TypeFor[Layout]()
	for i := range lt.NumField() {
		f := lt.Field(i)
		if f.Name == "Tiers" {
			continue
		}
		cond, ok := layoutConditions[f.Name]
		if !ok {
			return full, nil, fmt.Errorf("results.Layout.%s has no condition in results.layoutConditions: say when its columns appear", f.Name)
		}
		one := base
		switch f.Name {
		case "SLO":
			one.SLO, full.SLO = exampleSLO, exampleSLO
		case "Classes":
			one.Classes, full.Classes = []string{classPattern}, []string{classPattern}
		default:
			if f.Type.Kind() != reflect.Bool {
				return full, nil, fmt.Errorf("results.Layout.%s: the column reference knows bool parts and SLO only", f.Name)
			}
			reflect.ValueOf(&one).Elem().Field(i).SetBool(true)
			reflect.ValueOf(&full).Elem().Field(i).SetBool(true)
		}
		for _, n := range Names(RunColumns(one)) {
			if !slices.Contains(bare, n) {
				conds[n] = cond
			}
		}
	}
	return full, conds, nil
}

func unitOf(c Column) string {
	if c.Unit == "" && c.Int && c.Name == ColTasks {
		return "count"
	}
	return c.Unit
}

// WriteColumnReference writes the reference of runs.csv's and summary.csv's
// columns as markdown: a table of runs.csv's columns in file order (each
// pattern such as share_<tier> with its columns in a three-tier example),
// then how summary.csv is built from them.
func WriteColumnReference(w io.Writer) error {
	refs, err := ColumnReference()
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("| column | unit | present | meaning |\n| --- | --- | --- | --- |\n")
	for _, r := range refs {
		name := "`" + r.Name + "`"
		if len(r.Examples) > 0 {
			name += ", e.g. " + codeList(r.Examples)
		}
		unit := r.Unit
		if unit == "" {
			unit = "—"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", name, unit, r.When, cell(r.Doc))
	}
	cols := RunColumns(Layout{Tiers: exampleTiers})
	sh := SummaryHeader(cols)
	fmt.Fprintf(&b, "\n`summary.csv` has one row per (experiment, param, value, policy), in the order the runs first show it: %s, "+
		"then every metric column of runs.csv (from `%s` on) followed by `<column>_ci95`, the half-width of its 95%% Student-t "+
		"interval over the replicates that have a value (e.g. %s), then `%s`. A runs.csv of the default continuum gives this header:\n\n",
		codeList(summaryKeys), cols[0].Name, codeList([]string{ColMeanLatency, ColMeanLatency + "_ci95"}), sh[len(sh)-1])
	fmt.Fprintf(&b, "```\n%s\n```\n", strings.Join(sh, ","))
	for _, k := range []string{"runs", "unstable"} {
		fmt.Fprintf(&b, "\n- `%s`: %s", k, keyDocs[k].doc)
	}
	b.WriteString("\n")
	_, err = io.WriteString(w, b.String())
	return err
}

func codeList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	return strings.Join(q, ", ")
}

// cell escapes what would end a markdown table cell, and sets a
// placeholder such as <tier> in code, where markdown would read it as a
// tag and drop it.
func cell(s string) string {
	parts := strings.Split(strings.ReplaceAll(s, "|", `\|`), "`")
	for i := 0; i < len(parts); i += 2 { // outside code spans
		parts[i] = placeholder.ReplaceAllString(parts[i], "`$0`")
	}
	return strings.Join(parts, "`")
}

var placeholder = regexp.MustCompile(`<[a-z]+>`)
