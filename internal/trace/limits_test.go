package trace

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"strings"
	"testing"
)

// A small gzip file that expands past MaxDecompressed fails at the limit,
// with a message naming it, instead of expanding without end: here 2 MB of
// gzip members, each 1 MiB of 1 KiB lines, that expand to 1 GiB + 1 MiB.
func TestGzipExpansionIsBounded(t *testing.T) {
	if raceOn && os.Getenv("OFFLOAD_LONG") == "" {
		t.Skip("long under the race detector: set OFFLOAD_LONG=1")
	}
	var member bytes.Buffer
	zw, err := gzip.NewWriterLevel(&member, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(bytes.Repeat([]byte(strings.Repeat("x", 1023)+"\n"), 1024)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	in := bytes.Repeat(member.Bytes(), MaxDecompressed/(1<<20)+1)
	r, err := Decompress(bytes.NewReader(in), "bomb.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, r)
	if err == nil || !strings.Contains(err.Error(), "bomb.csv.gz: gzip: it expands to more than 1073741824 bytes") {
		t.Fatalf("read %d bytes, error %v; want the expansion limit", n, err)
	}
	if n > MaxDecompressed {
		t.Errorf("read %d bytes, more than the limit %d", n, MaxDecompressed)
	}
}

// One line, or one quoted field spread over many short lines, longer than
// MaxLine is refused with its line.
func TestLineAndFieldAreBounded(t *testing.T) {
	long := strings.Repeat("x", MaxLine)
	spread := `"` + strings.Repeat(strings.Repeat("y", 1023)+"\n", MaxLine/1024+1) + `"`
	for _, c := range []struct{ name, in, want string }{
		{"line", "a,s,note\n0,1," + long + "\n", "t.csv:2: the line is longer than 1048576 bytes (1 MiB)"},
		{"field", "a,s,note\n0,1," + spread + "\n", "t.csv:2: column 3: the field is longer than 1048576 bytes (1 MiB)"},
		{"header", "a,s," + long + "\n0,1\n", "t.csv:1: the line is longer than 1048576 bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := convert(t, c.in, Options{From: "csv", File: "t.csv", Arrival: "a", Size: "s"})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
	var swf strings.Builder
	swf.WriteString("1 0 0 5 1 " + long + "\n")
	if _, _, err := convert(t, swf.String(), Options{From: "swf", File: "l.swf"}); err == nil || !strings.Contains(err.Error(), "l.swf:1: the line is longer than") {
		t.Errorf("swf: error %v, want the line limit", err)
	}
}

// Numbers are decimal, as recorders write them: Go's own syntax that
// strconv.ParseFloat also takes (underscores, hexadecimal floats, inf) is a
// corrupt field.
func TestNumbersAreDecimal(t *testing.T) {
	for _, s := range []string{"1_000", "0x1p-2", "0X10", "inf", "+Inf", "Infinity", "nan", "1e", "e5", ".", "1.5.2", "--1", "1e+", "0b1", "1 2"} {
		if _, err := parseDecimal(s); err == nil {
			t.Errorf("parseDecimal(%q) accepted", s)
		}
		in := "a,s\n" + s + ",1\n2,1\n"
		if _, _, err := convert(t, in, Options{From: "csv", File: "n.csv", Arrival: "a", Size: "s"}); err == nil || !strings.Contains(err.Error(), "is not a finite number (allowed: decimal numbers") {
			t.Errorf("arrival %q: error %v, want a refusal naming the allowed form", s, err)
		}
	}
	for s, want := range map[string]float64{"1000": 1000, "+3": 3, "-2": -2, ".5": 0.5, "5.": 5, "1E+3": 1000, "2.5e-3": 0.0025, "007": 7} {
		if x, err := parseDecimal(s); err != nil || x != want {
			t.Errorf("parseDecimal(%q) = %v, %v; want %v", s, x, err, want)
		}
	}
	if _, _, err := convert(t, "1 0x10 0 5 1\n", Options{From: "swf", File: "h.swf"}); err == nil || !strings.Contains(err.Error(), `"0x10" is not a finite number`) {
		t.Errorf("swf submit 0x10: error %v", err)
	}
}

// An input of more than MaxRows rows is refused at the row past the limit,
// before its rows take ten times the input's size in memory. Long: ten
// million rows take seconds to read.
func TestRowsAreBounded(t *testing.T) {
	if os.Getenv("OFFLOAD_LONG") == "" {
		t.Skip("long: set OFFLOAD_LONG=1")
	}
	in := "size\n" + strings.Repeat("1\n", MaxRows+1)
	_, err := ReadColumn(strings.NewReader(in), "r.csv", "size")
	if err == nil || !strings.Contains(err.Error(), "more than 10000000 rows") {
		t.Errorf("error %v, want the row limit", err)
	}
}
