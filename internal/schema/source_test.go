package schema_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/offload-sim/offload/internal/schema"
)

// TestReadSourceParts reads a package and a sub-package as one: bounds in
// the order of their files' names whatever the folder, the sub-package's
// struct docs found, a re-export of its constant not listed twice.
func TestReadSourceParts(t *testing.T) {
	src := fstest.MapFS{
		"a.go":      {Data: []byte("package p\n\n// MaxA bounds a.\nconst MaxA = 1\n")},
		"c.go":      {Data: []byte("package p\n\nimport \"m/p/sub\"\n\nconst MaxB = sub.MaxB\n\n// MaxC bounds c.\nconst MaxC = 3\n")},
		"c_test.go": {Data: []byte("package p\n\nconst MaxT = 9\n")},
		"sub/b.go":  {Data: []byte("package sub\n\n// MaxB bounds b.\nconst MaxB = 2\n\n// T is a type.\ntype T struct {\n\tX int // the x\n}\n")},
	}
	s, err := schema.ReadSource(src, "p", "sub")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range s.Limits {
		got = append(got, strings.Join(l.Names, ",")+"="+strings.Join(l.Values, ","))
	}
	if want := "MaxA=1 MaxB=2 MaxC=3"; strings.Join(got, " ") != want {
		t.Errorf("limits %q, want %q", strings.Join(got, " "), want)
	}
	if d := s.Docs["T"]["X"]; d != "the x" {
		t.Errorf("T.X doc %q, want the sub-package's", d)
	}
	src["sub/d.go"] = &fstest.MapFile{Data: []byte("package sub\n\n// T again.\ntype T struct{ Y int }\n")}
	if _, err := schema.ReadSource(src, "p", "sub"); err == nil || !strings.Contains(err.Error(), "type T is declared twice") {
		t.Errorf("a type in two packages: err %v, want one naming it", err)
	}
	if _, err := schema.ReadSource(src, "p", "none"); err == nil {
		t.Error("a sub-package folder without Go files: no error")
	}
}
