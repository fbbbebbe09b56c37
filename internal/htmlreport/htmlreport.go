// Package htmlreport makes one self-contained HTML page of a results folder
// (a run, an experiment, a reproduction with its experiment folders, an
// emulation): the provenance from manifest.json, the summary tables with
// their 95% intervals, the figures re-drawn from the CSVs as inline SVG
// (text as outlines: no font is fetched), the claims of a reproduction
// converted from claims.md, and the resolved scenario. The page has no
// script and loads nothing: the CSS is inline, so it opens offline, mails as
// one file, and prints (a print stylesheet drops the navigation and keeps
// tables and figures whole).
//
// The folder is read through an fs.FS, so a test hands it an fstest.MapFS
// and the command an os.DirFS; nothing here writes a file or prints.
package htmlreport

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/report"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/store"
)

// Options say what the page says about itself.
type Options struct {
	// Title heads the page; "" makes one from the folder's manifest.
	Title string
	// Generator names what wrote the page (offload and its version), for
	// the footer.
	Generator string
	// Order is the order of a reproduction's experiment folders (its
	// caller's experiments know it); any other folder follows, by name.
	Order []string
	// Rank, if set, ranks the policies of each cell of an experiment
	// folder (its root is folder) on paired differences, and names the
	// metric ranked; no rankings (nil) leave the section out. The
	// statistics are the caller's (internal/analysis, as compare has
	// them).
	Rank func(folder fs.FS) (metric string, rankings []Ranking, err error)
	// Figures, if set, lists an experiment folder's figures of its own
	// (those its experiment draws from the files it kept, such as a
	// burst's series), after the sweep's. The experiments are the
	// caller's (internal/analysis): the page only embeds what they draw.
	Figures OwnFigures
}

// OwnFigures lists the figures an experiment draws of its own from the
// contents of its folder; none (nil, nil) for a folder it does not know.
type OwnFigures func(c Contents) ([]chart.Figure, error)

// Contents are what the page has read of an experiment folder: the folder
// itself, its summaries, and from its scenario.yaml the legend, the swept
// parameter ("" without a sweep) and the tiers.
type Contents struct {
	FS        fs.FS
	Sums      []results.Summary
	Legend    chart.Legend
	Param     string
	Tiers     []Tier
	Deadlines []string // the task classes that have a deadline
}

// ErrNotResults is returned (wrapped) for a folder with no manifest.json:
// a report of an arbitrary folder would be an empty page.
var ErrNotResults = errors.New("not an offload results folder (no manifest.json)")

// Write writes the report of the results folder fsys (its root is the
// folder) to w.
func Write(w io.Writer, fsys fs.FS, o Options) error {
	m, err := readManifest(fsys)
	if err != nil {
		return err
	}
	p := &page{order: o.Order, rank: o.Rank, own: o.Figures}
	title := o.Title
	if title == "" {
		title = "offload results: " + m.Experiment
	}
	if err := p.folder(fsys, m, "", 1, title); err != nil {
		return err
	}
	gen := o.Generator
	if gen == "" {
		gen = "offload"
	}
	var out strings.Builder
	out.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	out.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	// No resource may load from anywhere: the page is all there is.
	out.WriteString("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n")
	out.WriteString("<title>" + html.EscapeString(title) + "</title>\n<style>\n" + css + "</style>\n</head>\n<body>\n")
	if len(p.toc) > 1 {
		out.WriteString("<nav aria-label=\"contents\"><ul>\n")
		for _, t := range p.toc {
			fmt.Fprintf(&out, "<li class=\"l%d\"><a href=\"#%s\">%s</a></li>\n", t.level, t.id, html.EscapeString(t.text))
		}
		out.WriteString("</ul></nav>\n")
	}
	out.WriteString("<main>\n" + p.b.String() + "</main>\n")
	fmt.Fprintf(&out, "<footer>Made by %s from the files of this folder; every number is in its CSVs.</footer>\n</body>\n</html>\n", html.EscapeString(gen))
	_, err = io.WriteString(w, out.String())
	return err
}

// IsReport reports whether b is a page Write wrote (an HTML page whose
// footer names offload), so that a file of the user's under the same name
// can be told from it and left alone.
func IsReport(b []byte) bool {
	return bytes.HasPrefix(b, []byte("<!DOCTYPE html>\n")) && bytes.Contains(b, []byte("<footer>Made by offload"))
}

// page accumulates the body and its table of contents.
type page struct {
	b     strings.Builder
	toc   []tocEntry
	ids   map[string]int
	order []string // Options.Order
	rank  func(fs.FS) (string, []Ranking, error)
	own   OwnFigures
}

type tocEntry struct {
	level    int
	id, text string
}

// heading writes a section heading with a unique id and lists it.
func (p *page) heading(level int, text, id string) {
	if p.ids == nil {
		p.ids = map[string]int{}
	}
	if n := p.ids[id]; n > 0 {
		id = fmt.Sprintf("%s-%d", id, n+1)
	}
	p.ids[id]++
	if level <= 2 {
		p.toc = append(p.toc, tocEntry{level, id, text})
	}
	fmt.Fprintf(&p.b, "<h%d id=\"%s\">%s</h%d>\n", level, id, html.EscapeString(text), level)
}

// manifest is the part of manifest.json a report shows (internal/store
// writes it; the keys are its contract).
type manifest struct {
	Tool          string    `json:"tool"`
	Version       string    `json:"version"`
	Command       []string  `json:"command"`
	Experiment    string    `json:"experiment"`
	Seed          uint64    `json:"seed"`
	Seeds         int       `json:"seeds"`
	ScenarioHash  string    `json:"scenario_sha256"`
	Started       time.Time `json:"started"`
	Finished      time.Time `json:"finished"`
	Complete      bool      `json:"complete"`
	Runs          int       `json:"runs"`
	RunsDone      int       `json:"runs_done"`
	TimeDecisions bool      `json:"time_decisions"`
	Extra         struct {
		// A merged folder's: the merge's command, and the shards.
		MergeCommand []string `json:"merge_command"`
		MergedBy     string   `json:"merged_by"`
		Shards       []struct {
			Shard string `json:"shard"`
			Dir   string `json:"dir"`
		} `json:"shards"`
	} `json:"extra"`
}

func readManifest(fsys fs.FS) (manifest, error) {
	var m manifest
	b, err := fs.ReadFile(fsys, "manifest.json")
	if errors.Is(err, fs.ErrNotExist) {
		return m, ErrNotResults
	}
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("manifest.json: %w", err)
	}
	if m.Tool != "offload" {
		return m, fmt.Errorf("manifest.json: tool %q: %w", m.Tool, ErrNotResults)
	}
	return m, nil
}

// folder writes one results folder under a heading of the given level: a
// reproduction (claims.md, experiment subfolders) or one experiment.
func (p *page) folder(fsys fs.FS, m manifest, id string, level int, title string) error {
	p.heading(level, title, orDefault(id, "top"))
	p.provenance(m)
	if md, err := fs.ReadFile(fsys, "claims.md"); err == nil {
		p.heading(level+1, "Claims", id+"claims")
		p.b.WriteString("<div class=\"claims\">\n" + markdown(string(md), level+1, id+"claims-") + "</div>\n")
	}
	subs, err := subfolders(fsys, p.order)
	if err != nil {
		return err
	}
	for _, name := range subs {
		sub, err := fs.Sub(fsys, name)
		if err != nil {
			return err
		}
		sm, err := readManifest(sub)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := p.folder(sub, sm, slug(name)+"-", level+1, name); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return p.experiment(fsys, id, level+1)
}

// subfolders lists the folders holding a manifest.json, those of order
// first, in its order, then the others by name.
func subfolders(fsys fs.FS, order []string) ([]string, error) {
	ents, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		if e.IsDir() {
			if _, err := fs.Stat(fsys, path.Join(e.Name(), "manifest.json")); err == nil {
				names = append(names, e.Name())
			}
		}
	}
	rank := func(n string) int {
		if i := slices.Index(order, n); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(names, func(a, b string) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		return strings.Compare(a, b)
	})
	return names, nil
}

// provenance writes what made the folder.
func (p *page) provenance(m manifest) {
	rows := [][2]string{
		{"command", store.ShellJoin(m.Command)}, // quoted, so that it pastes back into a shell
		{"offload version", m.Version},
		{"experiment", m.Experiment},
	}
	if x := m.Extra; len(x.Shards) > 0 {
		// A merged folder: the command above is the shards' own.
		how := fmt.Sprintf("from %d shards", len(x.Shards))
		if len(x.MergeCommand) > 0 {
			how += " by " + strings.Join(x.MergeCommand, " ")
		}
		if x.MergedBy != "" && x.MergedBy != m.Version {
			how += " (offload " + x.MergedBy + ")"
		}
		rows = append(rows, [2]string{"merged", how})
	}
	if m.Seeds > 0 {
		rows = append(rows, [2]string{"master seed, replicates", fmt.Sprintf("%d, %d", m.Seed, m.Seeds)})
	}
	if m.Runs > 0 {
		rows = append(rows, [2]string{"runs", fmt.Sprintf("%d of %d", m.RunsDone, m.Runs)})
	}
	rows = append(rows, [2]string{"scenario sha256", m.ScenarioHash})
	if !m.Started.IsZero() {
		rows = append(rows, [2]string{"started", m.Started.Format(time.RFC3339)})
	}
	done := "no: the folder holds what finished (--resume runs the rest)"
	if m.Complete {
		done = "yes"
		if !m.Finished.IsZero() {
			done += ", " + m.Finished.Format(time.RFC3339) + " (" + m.Finished.Sub(m.Started).Round(time.Second).String() + ")"
		}
	}
	rows = append(rows, [2]string{"complete", done})
	if m.TimeDecisions {
		rows = append(rows, [2]string{"decisions timed", "yes (decision_ns is wall-clock, not reproducible)"})
	}
	p.b.WriteString("<dl class=\"prov\">\n")
	for _, r := range rows {
		cls := ""
		if r[0] == "command" || r[0] == "scenario sha256" || r[0] == "merged" {
			cls = " class=\"mono\""
		}
		fmt.Fprintf(&p.b, "<dt>%s</dt><dd%s>%s</dd>\n", html.EscapeString(r[0]), cls, html.EscapeString(r[1]))
	}
	p.b.WriteString("</dl>\n")
}

// headline are the summary.csv columns the report's tables show: the
// paper's latency metrics and the estimators' and timers' own, each as mean
// ± 95% half-width. Columns missing in every row are left out.
var headline = []string{results.ColMeanLatency, results.ColP95Latency, results.ColP99Latency, results.ColP95Large, results.ColMAPE, results.ColDecisionNs}

// experiment writes one experiment's tables, figures and scenario (the
// files it finds: a reproduction's root has none of them).
func (p *page) experiment(fsys fs.FS, id string, level int) error {
	c, err := scenarioFacts(fsys)
	if err != nil {
		return err
	}
	param := c.Param
	if b, err := fs.ReadFile(fsys, "summary.csv"); err == nil {
		if c.Sums, err = results.ReadSummary(bytes.NewReader(b)); err != nil {
			return err
		}
		p.heading(level, "Summary", id+"summary")
		p.b.WriteString("<p>Mean over replicates ± half-width of the 95% Student-t interval. ")
		p.b.WriteString("<span class=\"flag\">unstable</span> marks a cell where some tier's offered load is shown above 1 (a one-sided test over the replicates, its noise scaled by the tasks measured, corrected for the number of tiers): its queue grows without bound, so its latencies depend on the run length.</p>\n")
		p.summaryTable(c.Sums, param)
	}
	if err := p.classSection(c, id, level); err != nil {
		return err
	}
	if p.rank != nil {
		metric, rs, err := p.rank(fsys)
		if err != nil {
			return err
		}
		p.rankingSection(rs, metric, param, id, level)
	}
	for _, t := range []struct{ file, title, note string }{
		{"mape_summary.csv", "Prediction error of the estimators", "MAPE of the predicted latency (%) and mean absolute error of the predicted wait (s), each estimator in shadow on the router's decisions."},
		{"bursts.csv", "Bursts", "Per burst, on the replicate-averaged windowed series: the level before it, the peak, the recovery time (empty: not back within 20% before the next burst) and the cloud share before and during."},
		{"comparison.csv", "Emulated against simulated", "The same scenario and seeds on real HTTP tier servers and in the simulator."},
	} {
		b, err := fs.ReadFile(fsys, t.file)
		if err != nil {
			continue
		}
		tbl, err := csvTable(b, param)
		if err != nil {
			return fmt.Errorf("%s: %w", t.file, err)
		}
		p.heading(level, t.title, id+slug(t.title))
		p.b.WriteString("<p>" + html.EscapeString(t.note) + "</p>\n" + tbl)
	}
	figs, err := figures(c, p.own)
	if err != nil {
		return err
	}
	if len(figs) > 0 {
		p.heading(level, "Figures", id+"figures")
		for _, f := range figs {
			p.b.WriteString(f)
		}
	}
	if y, err := fs.ReadFile(fsys, "scenario.yaml"); err == nil {
		p.heading(level, "Scenario", id+"scenario")
		p.b.WriteString("<p>The resolved scenario (scenario.yaml: every default written out); its SHA-256 is the scenario hash above.</p>\n")
		p.b.WriteString("<pre class=\"scenario\">" + html.EscapeString(string(y)) + "</pre>\n")
	}
	return nil
}

// summaryTable writes the headline columns per cell and policy.
// outcomeCols are the columns of a scenario whose tiers slow down or fail,
// or whose dispatcher times tasks out.
var outcomeCols = []string{results.ColLostShare, results.ColTimeoutShare, results.ColRetryShare, results.ColGoodput}

// summaryRow opens a summary's table row: flagged unstable, marked where
// a new cell of the sweep starts (prev: the previous row's value), and the
// swept value's cell when there is one.
func (p *page) summaryRow(s results.Summary, swept bool, prev *float64) {
	var cls []string
	if s.Unstable {
		cls = append(cls, "unstable")
	}
	if swept && s.Value != *prev && !math.IsNaN(*prev) {
		cls = append(cls, "cell")
	}
	*prev = s.Value
	if len(cls) > 0 {
		p.b.WriteString("<tr class=\"" + strings.Join(cls, " ") + "\">")
	} else {
		p.b.WriteString("<tr>")
	}
	if swept {
		p.b.WriteString("<td class=\"num\">" + num(s.Value) + "</td>")
	}
}

func (p *page) summaryTable(sums []results.Summary, param string) {
	var cols []string
	want := slices.Clone(headline)
	if len(sums) > 0 { // SLO misses, energy and the outcomes of failing tiers, where the scenario asks for them
		for _, c := range sums[0].Cols {
			if strings.HasPrefix(c.Name, "slo_miss_") || strings.HasPrefix(c.Name, "energy_") || slices.Contains(outcomeCols, c.Name) {
				want = append(want, c.Name)
			}
		}
	}
	for _, c := range want {
		for _, s := range sums {
			if isFinite(s.Get(c)) {
				cols = append(cols, c)
				break
			}
		}
	}
	swept := param != "" && slices.ContainsFunc(sums, func(s results.Summary) bool { return isFinite(s.Value) })
	p.b.WriteString("<div class=\"scroll\"><table class=\"data\">\n<thead><tr>")
	if swept {
		p.b.WriteString("<th class=\"num\">" + html.EscapeString(param) + "</th>")
	}
	p.b.WriteString("<th>policy</th><th class=\"num\">runs</th>")
	for _, c := range cols {
		p.b.WriteString("<th class=\"num\">" + html.EscapeString(report.MetricLabel(c)) + "</th>")
	}
	p.b.WriteString("<th></th></tr></thead>\n<tbody>\n")
	prev := math.NaN()
	for _, s := range sums {
		p.summaryRow(s, swept, &prev)
		fmt.Fprintf(&p.b, "<td>%s</td><td class=\"num\">%d</td>", html.EscapeString(s.Policy), s.Runs)
		for _, c := range cols {
			p.b.WriteString("<td class=\"num\">" + meanCI(s.Get(c), s.CI(c)) + "</td>")
		}
		flag := ""
		if s.Unstable {
			flag = "<span class=\"flag\">unstable</span>"
		}
		p.b.WriteString("<td>" + flag + "</td></tr>\n")
	}
	p.b.WriteString("</tbody></table></div>\n")
}

// csvTable renders a CSV as a table: a <metric>_ci95 column joins its
// metric's as "mean ± ci", the experiment column and columns empty in every
// row are left out, value is headed by the swept parameter, and numbers
// show four significant digits.
func csvTable(data []byte, param string) (string, error) {
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		return "", err
	}
	if len(recs) == 0 {
		return "", errors.New("empty file")
	}
	head, body := recs[0], recs[1:]
	idx := map[string]int{}
	for j, h := range head {
		idx[h] = j
	}
	var show []int
	for j, h := range head {
		if h == "experiment" || (strings.HasSuffix(h, "_ci95") && hasKey(idx, strings.TrimSuffix(h, "_ci95"))) {
			continue
		}
		empty := true
		for _, r := range body {
			if j < len(r) && r[j] != "" {
				empty = false
				break
			}
		}
		if !empty && (h != "param" || param == "") {
			show = append(show, j)
		}
	}
	var b strings.Builder
	b.WriteString("<div class=\"scroll\"><table class=\"data\">\n<thead><tr>")
	for _, j := range show {
		h := head[j]
		if h == "value" && param != "" {
			h = param
		}
		// A column's name may break after an underscore: the name stays
		// as the CSV has it, and the table fits the column.
		b.WriteString("<th class=\"num\">" + strings.ReplaceAll(html.EscapeString(h), "_", "_<wbr>") + "</th>")
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for _, r := range body {
		b.WriteString("<tr>")
		for _, j := range show {
			v := at(r, j)
			ci, hasCI := idx[head[j]+"_ci95"]
			cell := html.EscapeString(v)
			cls := ""
			if x, err := strconv.ParseFloat(v, 64); err == nil {
				cls = " class=\"num\""
				cell = num(x)
				if hasCI {
					y, err := strconv.ParseFloat(at(r, ci), 64)
					if err != nil {
						y = math.NaN()
					}
					cell = meanCI(x, y)
				}
			}
			b.WriteString("<td" + cls + ">" + cell + "</td>")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody></table></div>\n")
	return b.String(), nil
}

func hasKey(m map[string]int, k string) bool { _, ok := m[k]; return ok }

func at(r []string, j int) string {
	if j < len(r) {
		return r[j]
	}
	return ""
}

// num formats a number with four significant digits; "—" when missing.
func num(x float64) string { return sig(x, 4) }

// num2 formats a half-width with two significant digits: it says how far
// the mean is known, which two digits tell.
func num2(x float64) string { return sig(x, 2) }

// sig writes x with at most n significant digits, in fixed point from
// 10⁻⁶ to 10⁷ (a column of results reads without exponents: 0.00005, not
// 5e−05), with a true minus sign; "—" when missing.
func sig(x float64, n int) string {
	if !isFinite(x) {
		return "—"
	}
	s := strconv.FormatFloat(x, 'g', n, 64)
	if a := math.Abs(x); strings.Contains(s, "e") && a >= 1e-6 && a < 1e7 {
		r, _ := strconv.ParseFloat(s, 64) // rounded to n digits
		s = strconv.FormatFloat(r, 'f', -1, 64)
	}
	return strings.Replace(s, "-", "−", 1)
}

// meanCI formats "mean ± ci", the interval left out when missing.
func meanCI(mean, ci float64) string {
	if !isFinite(mean) {
		return "—"
	}
	if !isFinite(ci) {
		return num(mean)
	}
	return num(mean) + "<span class=\"ci\"> ± " + num2(ci) + "</span>"
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return strings.TrimSuffix(s, "-")
}
