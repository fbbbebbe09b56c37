package schema_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/schema"
	"gopkg.in/yaml.v3"
)

type item struct {
	Name string  `yaml:"name"`
	Size float64 `yaml:"size" label:"item size" unit:"kg"`
}

type doc struct {
	Count int    `yaml:"count"`
	Items []item `yaml:"items"`
}

var s = &schema.Schema{
	IndexPath: "items[1].size",
	NamePath:  "items.box.size",
	Names: func(list reflect.Value) (string, []string) {
		var names []string
		for _, it := range list.Interface().([]item) {
			names = append(names, it.Name)
		}
		return "item", names
	},
}

func parse(t *testing.T, text string) *yaml.Node {
	t.Helper()
	root, errs := schema.ReadDocument([]byte(text), "a test document")
	if errs != nil {
		t.Fatal(errs)
	}
	return root
}

// TestWalk: every unknown key and wrongly typed value is reported in one
// pass, with its line, column and field path, and named items carry their
// names.
func TestWalk(t *testing.T) {
	root := parse(t, "count: 2.5\nitems:\n  - name: box\n    size: heavy\n    colour: red\n")
	name := func(segs []string) string {
		if len(segs) == 2 && segs[0] == "items" {
			return "box"
		}
		return ""
	}
	w := schema.NewWalker(s, root, name)
	w.Walk(root, reflect.TypeFor[doc](), nil)
	want := []string{
		`1:8: count: "2.5" is not allowed: want an integer`,
		`4:11: items[0] (box).size: "heavy" is not allowed: want a number`,
		`5:5: items[0] (box): unknown field "colour" (allowed: name, size)`,
	}
	var got []string
	for _, e := range w.Errs {
		e.File = "f"
		got = append(got, strings.TrimPrefix(e.Error(), "f:"))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(w.Bad) != 2 {
		t.Errorf("bad values %v, want count and items.0.size", w.Bad)
	}
}

// TestResolve: a path reaches a field through a list item by name or by
// index, and a wrong path says what is allowed.
func TestResolve(t *testing.T) {
	d := &doc{Items: []item{{Name: "box"}, {Name: "bag"}}}
	for _, p := range []string{"items.bag.size", "items[1].size", "items.1.size"} {
		tgt, ferr := s.Resolve(reflect.ValueOf(d), p, "the document")
		if ferr != nil {
			t.Fatalf("%s: %v", p, ferr)
		}
		if !reflect.DeepEqual(tgt.Path, []string{"items", "1", "size"}) {
			t.Errorf("%s: path %v", p, tgt.Path)
		}
		tgt.Value.SetFloat(3)
		if d.Items[1].Size != 3 {
			t.Errorf("%s: did not reach items[1].size", p)
		}
	}
	for p, want := range map[string]string{
		"weight":         `no field "weight" in the document (allowed: count, items)`,
		"items.cup.size": `no item "cup" in items (allowed: box, bag, or an index 0 to 1)`,
		"count.x":        `no field "x" in count: it is an integer, which has no fields`,
		"items[1":        `unclosed [ (paths look like items[1].size or items.box.size)`,
	} {
		if _, ferr := s.Resolve(reflect.ValueOf(d), p, "the document"); ferr == nil || ferr.Msg != want {
			t.Errorf("%s: %v, want %s", p, ferr, want)
		}
	}
}

// TestAnyRoundTrip: a free-form value written by FromAny reads back equal
// through ToAny, an integral float staying a float.
func TestAnyRoundTrip(t *testing.T) {
	v := map[string]any{"a": 1, "b": 1.0, "c": []any{"x", true, nil}, "<<": "merge", "d": map[string]any{"e": -2.5}}
	n, err := schema.FromAny(v, 0)
	if err != nil {
		t.Fatal(err)
	}
	out, err := yaml.Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	budget := 1000
	back := schema.ToAny(parse(t, string(out)), &budget, 0)
	if !reflect.DeepEqual(back, v) {
		t.Errorf("%s read back as %#v, want %#v", out, back, v)
	}
}

// TestWords: a path reads as its fields' labels, an index as the item's
// noun and ordinal, with the leaf's unit.
func TestWords(t *testing.T) {
	l, u, ok := s.Words(reflect.TypeFor[doc](), "items[0].size")
	if !ok || l != "items item 1 item size" || u != "kg" {
		t.Errorf("got %q %q %v", l, u, ok)
	}
}

// TestSyntaxErrorLines: a syntax error names the line a user would fix:
// yaml.v3's parser problems come 0-based and are moved to 1-based, its
// scanner problems already are.
func TestSyntaxErrorLines(t *testing.T) {
	for _, c := range []struct {
		doc  string
		line int
	}{
		{"name: x\nseeds: 2\ntasks: [1\n", 3},              // the unclosed [
		{"name: x\nseeds: 2\ntasks: [1\nfoo: 3\n", 3},      // the same, before more keys
		{"name: x\ntiers:\n  - {name: a\n  - {b: 1}\n", 3}, // the unclosed {
		{"a: 1\n- b\n", 2},                                 // a sequence entry in a mapping
		{"name: x\nseeds: 2\n  bad: 3\nfoo: 1\n", 3},       // a scanner problem
	} {
		_, errs := schema.ReadDocument([]byte(c.doc), "a scenario")
		if len(errs) != 1 || errs[0].Line != c.line {
			t.Errorf("%q: %v, want one error on line %d", c.doc, errs, c.line)
		}
	}
}
