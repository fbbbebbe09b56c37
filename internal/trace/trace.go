// Package trace converts recorded workloads (the Azure LLM inference trace,
// Standard Workload Format logs, any CSV) into the tool's trace format, and
// reads that format back for replay (docs/design.md §5).
//
// The tool's format is a CSV with the header "arrival_s,size": one row per
// task, sorted by arrival, arrival_s in seconds since the first row (which
// is at 0), size in the trace's own work unit (tokens, seconds of run time).
// The package reads an io.Reader and writes an io.Writer: it opens no file.
package trace

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Header is the first line of the tool's trace format.
const Header = "arrival_s,size"

// Error is a problem with one place of an input: "file:line:column: message",
// the line and column (1-based) left out when unknown. Column names the
// input's column (a CSV header name or an SWF field number).
type Error struct {
	File   string
	Line   int
	Column string
	Msg    string
}

// Error formats the problem on one line.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Column != "" {
		fmt.Fprintf(&b, ": column %s", e.Column)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// Table is a trace as replay uses it: arrivals (s, non-decreasing, the first
// at 0) and sizes, one of each per task.
type Table struct {
	Arrivals []float64
	Sizes    []float64
}

// Len is the number of tasks.
func (t *Table) Len() int { return len(t.Arrivals) }

// Options say how Convert reads its input.
type Options struct {
	// File names the input in messages.
	File string
	// From is the input format: azure-llm, swf or csv.
	From string
	// Size picks the size: azure-llm context, generated or total (default);
	// swf runtime (default) or work (run time × processors); for csv, the
	// size column's name.
	Size string
	// Arrival is the arrival column's name (csv only).
	Arrival string
	// TimeUnit is the unit of the csv arrival column: s (default), ms or us.
	TimeUnit string
	// Keep names raw columns to copy after arrival_s and size, as they are
	// in the input: header names for csv and azure-llm, the SWF field
	// names (SWFFields) for swf. An empirical size law can then draw from
	// them (workload.size.file and column).
	Keep []string
}

// SWFFields are the 18 fields of a Standard Workload Format line, by the
// names --keep takes (Feitelson's definition, in order).
func SWFFields() []string {
	return []string{"job", "submit", "wait", "runtime", "processors", "cpu", "memory", "req_processors",
		"req_time", "req_memory", "status", "user", "group", "executable", "queue", "partition",
		"preceding_job", "think_time"}
}

// Formats lists the input formats Convert reads.
func Formats() []string { return []string{"azure-llm", "swf", "csv"} }

// Stats says what Convert did: rows written and rows skipped (SWF jobs with
// no positive run time or missing fields), for the caller to report.
type Stats struct {
	Rows, Skipped int
}

// Convert reads an input of format o.From from r (gzip-compressed or not:
// the magic bytes tell) and writes it to w in the tool's format. On error
// nothing useful has been written: the caller discards w's output.
func Convert(r io.Reader, w io.Writer, o Options) (Stats, error) {
	if err := checkKeep(o); err != nil {
		return Stats{}, err
	}
	r, err := Decompress(r, o.File)
	if err != nil {
		return Stats{}, err
	}
	rows, skipped, err := readFormat(r, o)
	if err != nil {
		return Stats{}, err
	}
	if len(rows) == 0 {
		return Stats{}, &Error{File: o.File, Msg: "no rows to convert"}
	}
	if err := writeRows(w, rows, o.Keep); err != nil {
		return Stats{}, err
	}
	return Stats{Rows: len(rows), Skipped: skipped}, nil
}

// writeRows writes rows in the tool's format, times from the first row's,
// with the kept columns after arrival_s and size.
func writeRows(w io.Writer, rows []row, keep []string) error {
	cw := csv.NewWriter(w) // quotes a kept field that needs it
	rec := append([]string{"arrival_s", "size"}, keep...)
	if err := cw.Write(rec); err != nil {
		return err
	}
	t0 := rows[0].t
	for _, x := range rows {
		rec = append(rec[:0], strconv.FormatFloat(x.t-t0, 'f', -1, 64), strconv.FormatFloat(x.size, 'f', -1, 64))
		if err := cw.Write(append(rec, x.raw...)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// readFormat reads the rows of an input of format o.From, and how many
// it skipped.
func readFormat(r io.Reader, o Options) (rows []row, skipped int, err error) {
	switch o.From {
	case "azure-llm":
		rows, err = readAzure(r, o)
	case "swf":
		return readSWF(r, o)
	case "csv":
		rows, err = readCSV(r, o)
	default:
		err = fmt.Errorf("--from %q: allowed: %s", o.From, strings.Join(Formats(), ", "))
	}
	return rows, 0, err
}

// checkKeep refuses kept columns that would clash with the format's own.
func checkKeep(o Options) error {
	for i, k := range o.Keep {
		if k == "arrival_s" || k == "size" || slices.Contains(o.Keep[:i], k) {
			return fmt.Errorf("--keep %s: %q is not allowed: the output has arrival_s and size already, and each column once", strings.Join(o.Keep, ","), k)
		}
	}
	return nil
}

// kept copies the kept columns of a CSV record (at idx).
func kept(rec []string, idx []int, o Options, line int) ([]string, error) {
	if len(idx) == 0 {
		return nil, nil
	}
	raw := make([]string, len(idx))
	for k, i := range idx {
		if i >= len(rec) {
			return nil, &Error{File: o.File, Line: line, Column: o.Keep[k], Msg: "missing field"}
		}
		raw[k] = rec[i]
	}
	return raw, nil
}

// Limits of an input, so that neither a small gzip file that expands
// without end nor one endless line can exhaust memory.
const (
	// MaxDecompressed bounds what a gzip-compressed input expands to,
	// bytes: 1 GiB, the cap on an input read whole.
	MaxDecompressed = 1 << 30
	// MaxLine bounds one line of an input, and one CSV field, bytes.
	MaxLine = 1 << 20
	// MaxRows bounds the rows of an input: a row takes about 40 bytes
	// once read, so a gigabyte of short lines would take ten times its
	// size in memory.
	MaxRows = 10_000_000
)

// tooManyRows is the error of an input past MaxRows.
func tooManyRows(o Options, line int) error {
	return &Error{File: o.File, Line: line, Msg: fmt.Sprintf("more than %d rows, the limit of an input", MaxRows)}
}

// Decompress returns r, or a gzip reader over it when r starts with gzip's
// magic bytes, so that a .gz log needs no flag. What it returns fails with
// an *Error past MaxDecompressed bytes (compressed input) or on a line
// longer than MaxLine.
func Decompress(r io.Reader, file string) (io.Reader, error) {
	br := bufio.NewReader(r)
	magic, _ := br.Peek(2)
	if !bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		return &lineCap{r: br, file: file}, nil
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, &Error{File: file, Msg: "gzip: " + err.Error()}
	}
	return &lineCap{r: &expansionCap{r: zr, file: file, left: MaxDecompressed}, file: file}, nil
}

// expansionCap is a decompressed input that fails past its limit.
type expansionCap struct {
	r    io.Reader
	file string
	left int64
}

func (c *expansionCap) Read(p []byte) (int, error) {
	if c.left < 0 {
		return 0, c.err()
	}
	// One byte past the limit tells an input that exceeds it.
	n, err := c.r.Read(p[:min(int64(len(p)), c.left+1)])
	if c.left -= int64(n); c.left < 0 {
		return 0, c.err()
	}
	return n, err
}

func (c *expansionCap) err() error {
	return &Error{File: c.file, Msg: fmt.Sprintf("gzip: it expands to more than %d bytes (1 GiB), the limit of an input", MaxDecompressed)}
}

// lineCap is an input that fails on a line longer than MaxLine.
type lineCap struct {
	r     io.Reader
	file  string
	line  int // lines ended so far
	run   int // bytes of the current line so far
	fault error
}

func (c *lineCap) Read(p []byte) (int, error) {
	if c.fault != nil {
		return 0, c.fault
	}
	n, err := c.r.Read(p)
	for b := p[:n]; ; {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			c.run += len(b)
			break
		}
		c.run += i
		if c.run > MaxLine {
			break
		}
		c.line, c.run, b = c.line+1, 0, b[i+1:]
	}
	if c.run > MaxLine {
		c.fault = &Error{File: c.file, Line: c.line + 1, Msg: fmt.Sprintf("the line is longer than %d bytes (1 MiB), the limit of one line", MaxLine)}
		return 0, c.fault
	}
	return n, err
}

// row is one task of an input: its time (s, any origin) and size.
type row struct {
	t, size float64
	raw     []string // the kept columns (Options.Keep)
}

// sorted checks that rows arrive in time order: replay and the "seconds
// since the first row" origin both assume it, and silently sorting would
// hide a corrupt input.
func sorted(rows []row, o Options, line int, col string) error {
	if n := len(rows); n >= 2 && rows[n-1].t < rows[n-2].t {
		return &Error{File: o.File, Line: line, Column: col, Msg: fmt.Sprintf("time %v is before the previous row's %v: rows must be sorted by arrival", rows[n-1].t, rows[n-2].t)}
	}
	return nil
}

// header reads a CSV header and finds the named columns.
func header(cr *csv.Reader, o Options, names ...string) ([]int, error) {
	h, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &Error{File: o.File, Line: 1, Msg: "empty input: no header"}
		}
		return nil, csvError(err, o)
	}
	idx := make([]int, len(names))
	for i, n := range names {
		idx[i] = -1
		for j, c := range h {
			if strings.TrimSpace(strings.TrimPrefix(c, "\ufeff")) == n {
				idx[i] = j
			}
		}
		if idx[i] < 0 {
			return nil, &Error{File: o.File, Line: 1, Column: n, Msg: fmt.Sprintf("no column %q in the header (have: %s)", n, strings.Join(h, ", "))}
		}
	}
	return idx, nil
}

func csvError(err error, o Options) error {
	var te *Error
	if errors.As(err, &te) { // a limit of the input's (Decompress)
		return te
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &Error{File: o.File, Line: pe.Line, Column: strconv.Itoa(pe.Column), Msg: pe.Err.Error()}
	}
	return &Error{File: o.File, Msg: err.Error()}
}

func newCSV(r io.Reader) *csv.Reader {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	cr.FieldsPerRecord = -1
	return cr
}

// number parses a finite non-negative number of column col.
func number(s string, o Options, line int, col string) (float64, error) {
	x, err := parseDecimal(strings.TrimSpace(s))
	switch {
	case err != nil || math.IsNaN(x) || math.IsInf(x, 0):
		return 0, &Error{File: o.File, Line: line, Column: col, Msg: fmt.Sprintf("%q is not a finite number (allowed: decimal numbers such as 1000, 0.25 or 2.5e-3)", s)}
	case x < 0:
		return 0, &Error{File: o.File, Line: line, Column: col, Msg: fmt.Sprintf("%v is negative: must be ≥ 0", x)}
	}
	return x, nil
}

// errSyntax is parseDecimal's refusal.
var errSyntax = errors.New("not a decimal number")

// parseDecimal reads a decimal number as a CSV or log writes one,
// [+-]digits[.digits][(e|E)[+-]digits], with digits on at least one side of
// the point. strconv.ParseFloat also takes Go's own syntax (1_000, 0x1p-2,
// inf), which no recorder writes: in a trace it is a corrupt field.
func parseDecimal(s string) (float64, error) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	n := digits()
	if i < len(s) && s[i] == '.' {
		i++
		n += digits()
	}
	if n == 0 {
		return 0, errSyntax
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return 0, errSyntax
		}
	}
	if i != len(s) {
		return 0, errSyntax
	}
	return strconv.ParseFloat(s, 64)
}

// azureLayout is the TIMESTAMP format of the Azure LLM inference trace
// ("2023-11-16 18:17:03.9799600"); time.Parse reads the fractional seconds
// (to the nanosecond) though the layout does not name them.
const azureLayout = "2006-01-02 15:04:05"

func readAzure(r io.Reader, o Options) ([]row, error) {
	pick := o.Size
	if pick == "" {
		pick = "total"
	}
	if pick != "total" && pick != "context" && pick != "generated" {
		return nil, fmt.Errorf("--size %q: allowed for azure-llm: context, generated, total", pick)
	}
	cr := newCSV(r)
	idx, err := header(cr, o, append([]string{"TIMESTAMP", "ContextTokens", "GeneratedTokens"}, o.Keep...)...)
	if err != nil {
		return nil, err
	}
	var rows []row
	var t0 time.Time
	err = records(cr, o, func(rec []string, line int) error {
		ts, rw, err := azureRow(rec, idx, pick, o, line)
		if err != nil {
			return err
		}
		if len(rows) == 0 {
			t0 = ts
		}
		// Seconds from the first row, through an exact integer duration, so
		// that 100 ns steps survive the conversion.
		rw.t = ts.Sub(t0).Seconds()
		rows = append(rows, rw)
		return sorted(rows, o, line, "TIMESTAMP")
	})
	return rows, err
}

// azureRow reads one request of the Azure trace: its time, and a row of
// its size (tokens of the part pick names) and kept fields.
func azureRow(rec []string, idx []int, pick string, o Options, line int) (time.Time, row, error) {
	for k, n := range []string{"TIMESTAMP", "ContextTokens", "GeneratedTokens"} {
		if idx[k] >= len(rec) {
			return time.Time{}, row{}, &Error{File: o.File, Line: line, Column: n, Msg: "missing field"}
		}
	}
	ts, err := time.Parse(azureLayout, strings.TrimSpace(rec[idx[0]]))
	if err != nil {
		return time.Time{}, row{}, &Error{File: o.File, Line: line, Column: "TIMESTAMP", Msg: fmt.Sprintf("%q is not a datetime like 2023-11-16 18:17:03.9799600", rec[idx[0]])}
	}
	ctx, err := number(rec[idx[1]], o, line, "ContextTokens")
	if err != nil {
		return time.Time{}, row{}, err
	}
	gen, err := number(rec[idx[2]], o, line, "GeneratedTokens")
	if err != nil {
		return time.Time{}, row{}, err
	}
	size := ctx + gen
	switch pick {
	case "context":
		size = ctx
	case "generated":
		size = gen
	}
	raw, err := kept(rec, idx[3:], o, line)
	return ts, row{size: size, raw: raw}, err
}

func readCSV(r io.Reader, o Options) ([]row, error) {
	if o.Arrival == "" || o.Size == "" {
		return nil, errors.New("csv needs --arrival COL and --size COL")
	}
	scale, err := timeScale(o.TimeUnit)
	if err != nil {
		return nil, err
	}
	cr := newCSV(r)
	idx, err := header(cr, o, append([]string{o.Arrival, o.Size}, o.Keep...)...)
	if err != nil {
		return nil, err
	}
	var rows []row
	err = records(cr, o, func(rec []string, line int) error {
		for k, n := range []string{o.Arrival, o.Size} {
			if idx[k] >= len(rec) {
				return &Error{File: o.File, Line: line, Column: n, Msg: "missing field"}
			}
		}
		t, err := number(rec[idx[0]], o, line, o.Arrival)
		if err != nil {
			return err
		}
		size, err := number(rec[idx[1]], o, line, o.Size)
		if err != nil {
			return err
		}
		raw, err := kept(rec, idx[2:], o, line)
		if err != nil {
			return err
		}
		rows = append(rows, row{t: t * scale, size: size, raw: raw})
		return sorted(rows, o, line, o.Arrival)
	})
	return rows, err
}

// timeScale is the seconds of one unit of --time-unit.
func timeScale(unit string) (float64, error) {
	switch unit {
	case "", "s":
		return 1, nil
	case "ms":
		return 1e-3, nil
	case "us":
		return 1e-6, nil
	}
	return 0, fmt.Errorf("--time-unit %q: allowed: s, ms, us", unit)
}

// readSWF reads a Standard Workload Format log: ';' lines are comments,
// every other line 18 whitespace-separated fields. Jobs without a positive
// run time (the archive's −1 for unknown, or 0) or with missing fields
// cannot be replayed and are skipped, and counted.
func readSWF(r io.Reader, o Options) (rows []row, skipped int, err error) {
	pick, keep, err := swfOptions(o)
	if err != nil {
		return nil, 0, err
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine+1) // a longer line fails in Decompress's reader first
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, ";") {
			continue
		}
		rw, ok, err := swfRow(strings.Fields(s), pick, keep, o, line)
		switch {
		case err != nil:
			return nil, 0, err
		case !ok:
			skipped++
			continue
		case len(rows) == MaxRows:
			return nil, 0, tooManyRows(o, line)
		}
		rows = append(rows, rw)
		if err := sorted(rows, o, line, "2 (submit time)"); err != nil {
			return nil, 0, err
		}
	}
	if err := sc.Err(); err != nil {
		var te *Error
		if errors.As(err, &te) { // a limit of the input's
			return nil, 0, te
		}
		return nil, 0, &Error{File: o.File, Line: line + 1, Msg: err.Error()}
	}
	return rows, skipped, nil
}

// swfOptions checks the options an SWF log takes: the size (runtime or
// work) and the kept fields, by their index in a line.
func swfOptions(o Options) (pick string, keep []int, err error) {
	pick = o.Size
	if pick == "" {
		pick = "runtime"
	}
	if pick != "runtime" && pick != "work" {
		return "", nil, fmt.Errorf("--size %q: allowed for swf: runtime, work", pick)
	}
	keep = make([]int, len(o.Keep))
	for k, n := range o.Keep {
		if keep[k] = slices.Index(SWFFields(), n); keep[k] < 0 {
			return "", nil, fmt.Errorf("--keep %s: %q is not an SWF field (allowed: %s)", strings.Join(o.Keep, ","), n, strings.Join(SWFFields(), ", "))
		}
	}
	return pick, keep, nil
}

// swfRow reads one job's fields f: ok false for a job that cannot be
// replayed (missing fields, no positive run time, no processors for work).
func swfRow(f []string, pick string, keep []int, o Options, line int) (rw row, ok bool, err error) {
	if len(f) < 5 {
		return row{}, false, nil
	}
	submit, err := swfNumber(f[1], "2 (submit time)", o, line)
	if err != nil {
		return row{}, false, err
	}
	run, err := swfNumber(f[3], "4 (run time)", o, line)
	if err != nil || submit < 0 || run <= 0 {
		return row{}, false, err
	}
	size := run
	if pick == "work" {
		p, err := parseDecimal(f[4])
		if err != nil || !(p > 0) || math.IsInf(p, 0) {
			return row{}, false, nil
		}
		size = run * p
	}
	var raw []string
	for _, i := range keep {
		if i >= len(f) { // a kept field is missing: as any missing field
			return row{}, false, nil
		}
		raw = append(raw, f[i])
	}
	return row{t: submit, size: size, raw: raw}, true, nil
}

// swfNumber reads a field that must be a finite number.
func swfNumber(s, column string, o Options, line int) (float64, error) {
	x, err := parseDecimal(s)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, &Error{File: o.File, Line: line, Column: column, Msg: fmt.Sprintf("%q is not a finite number (allowed: decimal numbers such as 1000, 0.25 or 2.5e-3)", s)}
	}
	return x, nil
}

// Read reads a trace in the tool's format (gzip-compressed or not). It
// checks what replay relies on: the header, finite arrivals from 0 in
// non-decreasing order, finite non-negative sizes with a positive mean, and
// at least two rows (a rate needs a span).
func Read(r io.Reader, file string) (*Table, error) {
	o := Options{File: file}
	r, err := Decompress(r, file)
	if err != nil {
		return nil, err
	}
	cr := newCSV(r)
	idx, err := header(cr, o, "arrival_s", "size")
	if err != nil {
		return nil, err
	}
	t := &Table{}
	sum := 0.0
	err = records(cr, o, func(rec []string, line int) error {
		if idx[0] >= len(rec) || idx[1] >= len(rec) {
			return &Error{File: file, Line: line, Msg: "missing field: need arrival_s and size"}
		}
		a, err := number(rec[idx[0]], o, line, "arrival_s")
		if err != nil {
			return err
		}
		if n := len(t.Arrivals); n > 0 && a < t.Arrivals[n-1] {
			return &Error{File: file, Line: line, Column: "arrival_s", Msg: fmt.Sprintf("%v is before the previous row's %v: rows must be sorted by arrival", a, t.Arrivals[n-1])}
		}
		s, err := number(rec[idx[1]], o, line, "size")
		if err != nil {
			return err
		}
		t.Arrivals = append(t.Arrivals, a)
		t.Sizes = append(t.Sizes, s)
		sum += s
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t.replayable(file, sum)
}

// replayable checks what replay needs of a whole table (sizes summing to
// sum) and moves its origin to the first row.
func (t *Table) replayable(file string, sum float64) (*Table, error) {
	switch {
	case len(t.Arrivals) < 2:
		return nil, &Error{File: file, Msg: fmt.Sprintf("%d rows: a trace needs at least 2", len(t.Arrivals))}
	case !(t.Arrivals[len(t.Arrivals)-1] > t.Arrivals[0]):
		return nil, &Error{File: file, Msg: "every row arrives at the same time: the trace has no span"}
	case !(sum > 0):
		return nil, &Error{File: file, Msg: "every size is 0: the mean size must be > 0"}
	}
	if a0 := t.Arrivals[0]; a0 != 0 {
		for i := range t.Arrivals { // the format's origin is the first row
			t.Arrivals[i] -= a0
		}
	}
	return t, nil
}

// ReadColumn reads the named column of a CSV with a header (the tool's
// trace format or any other; gzip-compressed or not): the values of an
// `empirical` size law. Every value must be a finite number ≥ 0, and their
// mean > 0.
func ReadColumn(r io.Reader, file, column string) ([]float64, error) {
	o := Options{File: file}
	r, err := Decompress(r, file)
	if err != nil {
		return nil, err
	}
	cr := newCSV(r)
	idx, err := header(cr, o, column)
	if err != nil {
		return nil, err
	}
	var xs []float64
	sum := 0.0
	err = records(cr, o, func(rec []string, line int) error {
		if idx[0] >= len(rec) {
			return &Error{File: file, Line: line, Column: column, Msg: "missing field"}
		}
		x, err := number(rec[idx[0]], o, line, column)
		if err != nil {
			return err
		}
		xs = append(xs, x)
		sum += x
		return nil
	})
	if err != nil {
		return nil, err
	}
	switch {
	case len(xs) == 0:
		return nil, &Error{File: file, Column: column, Msg: "no rows"}
	case !(sum > 0):
		return nil, &Error{File: file, Column: column, Msg: "every value is 0: the mean must be > 0"}
	}
	return xs, nil
}

// records calls f on every record after the header, with its line, and
// stops at the first error.
func records(cr *csv.Reader, o Options, f func(rec []string, line int) error) error {
	for n := 0; ; n++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return csvError(err, o)
		}
		line, _ := cr.FieldPos(0)
		if n == MaxRows {
			return tooManyRows(o, line)
		}
		for i, field := range rec { // a quoted field may span lines
			if len(field) > MaxLine {
				at, _ := cr.FieldPos(i)
				return &Error{File: o.File, Line: at, Column: strconv.Itoa(i + 1), Msg: fmt.Sprintf("the field is longer than %d bytes (1 MiB), the limit of one field", MaxLine)}
			}
		}
		if err := f(rec, line); err != nil {
			return err
		}
	}
}
