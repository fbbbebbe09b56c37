package trace

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"strings"
	"testing"
)

func convert(t *testing.T, in string, o Options) (string, Stats, error) {
	t.Helper()
	var b bytes.Buffer
	st, err := Convert(strings.NewReader(in), &b, o)
	return b.String(), st, err
}

func TestAzure(t *testing.T) {
	in := "TIMESTAMP,ContextTokens,GeneratedTokens\n" +
		"2023-11-16 18:17:03.9799600,4808,10\n" +
		"2023-11-16 18:17:04.0319601,3180,8\n" +
		"2023-11-16 18:17:05.0000000,1,2\n"
	out, st, err := convert(t, in, Options{File: "a.csv", From: "azure-llm"})
	if err != nil {
		t.Fatal(err)
	}
	want := "arrival_s,size\n0,4818\n0.0520001,3188\n1.02004,3\n"
	if out != want || st.Rows != 3 {
		t.Errorf("got %q %+v, want %q", out, st, want)
	}
	out, _, _ = convert(t, in, Options{File: "a.csv", From: "azure-llm", Size: "generated"})
	if !strings.HasSuffix(out, ",2\n") {
		t.Errorf("generated: %q", out)
	}
}

func TestSWFSkipsAndGzip(t *testing.T) {
	in := "; UnixStartTime: 749458803\n;\n" +
		"    1        0     -1   1451  128  -1 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1\n" +
		"    2       10     -1     -1  128  -1 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1\n" +
		"    3       20     -1      5    4  -1 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1\n"
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(in))
	zw.Close()
	for _, src := range []string{in, z.String()} {
		out, st, err := convert(t, src, Options{File: "n.swf", From: "swf", Size: "work"})
		if err != nil {
			t.Fatal(err)
		}
		if want := "arrival_s,size\n0,185728\n20,20\n"; out != want || st.Skipped != 1 || st.Rows != 2 {
			t.Errorf("got %q %+v, want %q and 1 skipped", out, st, want)
		}
	}
}

func TestCSVMilliseconds(t *testing.T) {
	in := "id,t_ms,work\n1,1000,2.5\n2,1500,1\n3,4000,0\n"
	out, _, err := convert(t, in, Options{File: "c.csv", From: "csv", Arrival: "t_ms", Size: "work", TimeUnit: "ms"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "arrival_s,size\n0,2.5\n0.5,1\n3,0\n"; out != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

func TestBadInputs(t *testing.T) {
	az := "TIMESTAMP,ContextTokens,GeneratedTokens\n"
	for _, c := range []struct {
		name, in string
		o        Options
		want     string
	}{
		{"missing column", "TIMESTAMP,ContextTokens\n", Options{From: "azure-llm"}, `f:1: column GeneratedTokens: no column "GeneratedTokens"`},
		{"bad timestamp", az + "2023-11-16 18:17:03.9,1,1\n2023-11-16 25:17:03,1,1\n", Options{From: "azure-llm"}, "f:3: column TIMESTAMP: \"2023-11-16 25:17:03\" is not a datetime"},
		{"negative size", az + "2023-11-16 18:17:03.9,-1,1\n", Options{From: "azure-llm"}, "f:2: column ContextTokens: -1 is negative"},
		{"unsorted", az + "2023-11-16 18:17:03.9,1,1\n2023-11-16 18:17:02.9,1,1\n", Options{From: "azure-llm"}, "f:3: column TIMESTAMP: time -1 is before"},
		{"csv unsorted", "t,s\n2,1\n1,1\n", Options{From: "csv", Arrival: "t", Size: "s"}, "f:3: column t: time 1 is before"},
		{"csv negative", "t,s\n2,1\n3,-4\n", Options{From: "csv", Arrival: "t", Size: "s"}, "f:3: column s: -4 is negative"},
		{"swf bad submit", "1 x -1 5 1\n", Options{From: "swf"}, `f:1: column 2 (submit time): "x" is not a finite number`},
		{"unknown format", "", Options{From: "xls"}, `--from "xls"`},
	} {
		c.o.File = "f"
		_, _, err := convert(t, c.in, c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

func TestRead(t *testing.T) {
	tb, err := Read(strings.NewReader("arrival_s,size\n0,1\n2,3\n"), "t.csv")
	if err != nil || tb.Len() != 2 || tb.Arrivals[1] != 2 || tb.Sizes[1] != 3 {
		t.Fatalf("got %+v, %v", tb, err)
	}
	for in, want := range map[string]string{
		"arrival_s,size\n0,1\n":        "1 rows",
		"arrival_s,size\n0,1\n-1,1\n":  "t.csv:3: column arrival_s: -1 is negative",
		"arrival_s,size\n1,1\n0,1\n":   "t.csv:3: column arrival_s: 0 is before",
		"arrival,size\n0,1\n":          "t.csv:1: column arrival_s: no column",
		"arrival_s,size\n0,0\n1,0\n":   "mean size must be > 0",
		"arrival_s,size\n0,1\n1,nan\n": `t.csv:3: column size: "nan" is not a finite number`,
	} {
		if _, err := Read(strings.NewReader(in), "t.csv"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", in, err, want)
		}
	}
}

// TestShipped converts the shipped originals again and compares with the
// shipped conversions: row counts, the skipped jobs, first and last rows.
func TestShipped(t *testing.T) {
	for _, c := range []struct {
		raw, conv, from string
		keep            []string
		rows, skipped   int
		first, last     string
	}{
		{"AzureLLMInferenceTrace_code.csv", "azure-llm-code.csv", "azure-llm", []string{"ContextTokens", "GeneratedTokens"}, 8819, 0, "0,4818,4808,10", "3435.948056,722,549,173"},
		{"NASA-iPSC-1993-3.1-cln.swf.gz", "nasa-ipsc.csv", "swf", nil, 18066, 173, "0,1451", "7948936,86"},
	} {
		raw, err := os.ReadFile("../../testdata/traces/" + c.raw)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		st, err := Convert(bytes.NewReader(raw), &b, Options{File: c.raw, From: c.from, Keep: c.keep})
		if err != nil {
			t.Fatal(err)
		}
		if st.Rows != c.rows || st.Skipped != c.skipped {
			t.Errorf("%s: %+v, want %d rows, %d skipped", c.raw, st, c.rows, c.skipped)
		}
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		if lines[1] != c.first || lines[len(lines)-1] != c.last {
			t.Errorf("%s: first %q last %q, want %q %q", c.raw, lines[1], lines[len(lines)-1], c.first, c.last)
		}
		shipped, err := os.ReadFile("../../testdata/traces/" + c.conv)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(shipped, b.Bytes()) {
			t.Errorf("%s differs from converting %s again", c.conv, c.raw)
		}
	}
}

// ReadColumn reads one named column, gzip or not, and names the file, line
// and column of a bad value.
func TestReadColumn(t *testing.T) {
	xs, err := ReadColumn(strings.NewReader("arrival_s,size,tokens\n0,1,10\n1,2,0\n"), "a.csv", "tokens")
	if err != nil || len(xs) != 2 || xs[0] != 10 || xs[1] != 0 {
		t.Fatalf("got %v, %v", xs, err)
	}
	for _, c := range []struct{ in, col, want string }{
		{"a,b\n1,2\n", "c", `a.csv:1: column c: no column "c" in the header (have: a, b)`},
		{"a,b\n1,2\n3,-4\n", "b", "a.csv:3: column b: -4 is negative"},
		{"a,b\n1,x\n", "b", `a.csv:2: column b: "x" is not a finite number`},
		{"a,b\n1,0\n", "b", "every value is 0"},
		{"a,b\n", "b", "no rows"},
	} {
		if _, err := ReadColumn(strings.NewReader(c.in), "a.csv", c.col); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.in, err, c.want)
		}
	}
}

// --keep copies raw columns as they are, by header name (csv, azure-llm)
// or SWF field name, and refuses names that clash or do not exist.
func TestKeep(t *testing.T) {
	var b bytes.Buffer
	if _, err := Convert(strings.NewReader("t,s,user,note\n0,1,ann,\"a,b\"\n2,3,bob,c\n"), &b, Options{File: "in.csv", From: "csv", Arrival: "t", Size: "s", Keep: []string{"note", "user"}}); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != "arrival_s,size,note,user\n0,1,\"a,b\",ann\n2,3,c,bob\n" {
		t.Errorf("csv: got %q", got)
	}
	b.Reset()
	swf := "; comment\n1 0 5 10 4 -1 -1 4 -1 -1 1 7 1 -1 1 -1 -1 -1\n2 3 0 -1 4\n3 9 1 20 2 -1 -1 2 -1 -1 1 8 1 -1 1 -1 -1 -1\n"
	st, err := Convert(strings.NewReader(swf), &b, Options{File: "in.swf", From: "swf", Keep: []string{"processors", "user"}})
	if err != nil || st.Rows != 2 || st.Skipped != 1 {
		t.Fatalf("swf: %+v, %v", st, err)
	}
	if got := b.String(); got != "arrival_s,size,processors,user\n0,10,4,7\n9,20,2,8\n" {
		t.Errorf("swf: got %q", got)
	}
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{From: "csv", Arrival: "t", Size: "s", Keep: []string{"size"}}, `"size" is not allowed`},
		{Options{From: "csv", Arrival: "t", Size: "s", Keep: []string{"x"}}, `no column "x"`},
		{Options{From: "swf", Keep: []string{"nodes"}}, `"nodes" is not an SWF field`},
	} {
		if _, err := Convert(strings.NewReader("t,s\n0,1\n"), io.Discard, c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want %q", c.o, err, c.want)
		}
	}
}
