package schema

import (
	"fmt"
	"io"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// KeyRef is one key of a document.
type KeyRef struct {
	Path    string // dotted, a list's items as [] (tiers[].servers)
	Shape   string // what a value looks like: "a number", "a mapping (…)"
	Default string // "" when none
	Doc     string
}

// Keys lists every key of type t by reflection on its yaml tags: what a
// value looks like (Describe, as the error messages say it), its default
// from def (t's value a document is decoded over) and its meaning from
// the field's doc comment in src. A custom type's keys are not listed.
func (s *Schema) Keys(t reflect.Type, def reflect.Value, src *Source) ([]KeyRef, error) {
	k := keyWalker{schema: s, src: src, seen: map[reflect.Type]string{}}
	if err := k.walk(t, def, ""); err != nil {
		return nil, err
	}
	return k.refs, nil
}

type keyWalker struct {
	schema *Schema
	src    *Source
	seen   map[reflect.Type]string // struct types already expanded, at which path
	refs   []KeyRef
}

func (k *keyWalker) walk(t reflect.Type, def reflect.Value, prefix string) error {
	for i := range t.NumField() {
		f := t.Field(i)
		name := YAMLName(f)
		if name == "" {
			continue
		}
		path := name
		if prefix != "" {
			path = prefix + "." + name
		}
		doc, ok := k.src.Docs[t.Name()][f.Name]
		if !ok {
			return fmt.Errorf("%s.%s.%s (%s) has no doc comment: say what it is, with its unit", k.src.Pkg, t.Name(), f.Name, path)
		}
		ref := KeyRef{Path: path, Shape: k.schema.shapeOf(f.Type), Doc: userDoc(doc, f.Name, t)}
		var dv reflect.Value
		if def.IsValid() {
			dv = def.Field(i)
			ref.Default = defaultOf(dv)
		}
		if err := k.field(f.Type, dv, ref); err != nil {
			return err
		}
	}
	return nil
}

// field adds the row ref of a field of type ft (default dv), and the rows
// of its keys if it is a mapping or a list of them not met before.
func (k *keyWalker) field(ft reflect.Type, dv reflect.Value, ref KeyRef) error {
	if k.schema.IsCustom(ft) || (ft.Kind() == reflect.Slice && k.schema.IsCustom(ft.Elem())) {
		k.refs = append(k.refs, ref)
		return nil
	}
	et := ft
	item := ref.Path
	for et.Kind() == reflect.Pointer || (et.Kind() == reflect.Slice && !k.schema.IsCustom(et)) {
		if et.Kind() == reflect.Slice {
			item += "[]"
			dv = reflect.Value{}
		} else if dv.IsValid() {
			if dv.IsNil() {
				dv = reflect.Value{}
			} else {
				dv = dv.Elem()
			}
		}
		et = et.Elem()
	}
	if et.Kind() != reflect.Struct {
		k.refs = append(k.refs, ref)
		return nil
	}
	if at, done := k.seen[et]; done {
		ref.Shape = k.schema.Describe(ft)
		ref.Doc = strings.TrimSuffix(ref.Doc, ".") + ". Its keys are those of `" + at + "`."
		k.refs = append(k.refs, ref)
		return nil
	}
	k.seen[et] = item
	k.refs = append(k.refs, ref)
	return k.walk(et, dv, item)
}

// shapeOf says what a key's value looks like, as the error messages say it
// (Describe), but without a mapping's keys, which the rows after it list.
func (s *Schema) shapeOf(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t.Kind() == reflect.Bool:
		return "true or false"
	case t.Kind() == reflect.Struct && !s.IsCustom(t):
		return "a mapping"
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct && !s.IsCustom(t.Elem()):
		return "a list of mappings"
	}
	return s.Describe(t)
}

// defaultOf writes a default value, or "" for a zero one (no default: the
// file's choice, or a meaning the doc gives for "omitted").
func defaultOf(v reflect.Value) string {
	if !v.IsValid() || v.IsZero() {
		return ""
	}
	switch v.Kind() {
	case reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	case reflect.Int, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Uint, reflect.Uint64:
		return strconv.FormatUint(v.Uint(), 10)
	case reflect.String:
		return v.String()
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	}
	return "" // a mapping: its keys carry their own defaults
}

// userDoc turns a Go doc comment into a key's meaning: without the
// leading "Field is" (or "Field and Other are", for two fields one comment
// describes), with the struct's Go field names written as their YAML keys.
func userDoc(doc, field string, t reflect.Type) string {
	doc = strings.Join(strings.Fields(doc), " ")
	if m := docLead.FindStringSubmatch(doc); m != nil && (m[1] == field || m[2] == field) {
		doc = strings.TrimLeft(doc[len(m[0]):], ", ")
	}
	for i := range t.NumField() {
		f := t.Field(i)
		if n := YAMLName(f); n != "" {
			doc = regexp.MustCompile(`\b`+f.Name+`\b`).ReplaceAllString(doc, "`"+n+"`")
		}
	}
	return doc
}

// docLead is a doc comment's subject: "Field is ", "Field and Other are ",
// "Field: ", "Field, if set, ", or the bare name before its verb.
var docLead = regexp.MustCompile(`^([A-Z]\w*)(?: and ([A-Z]\w*))?(?: (?:is|are) |: |, if set, | |,)`)

// WriteKeys writes keys as a markdown table: every key in declaration
// order, what its value looks like, its default and its meaning.
func WriteKeys(w io.Writer, keys []KeyRef) error {
	var b strings.Builder
	b.WriteString("| key | value | default | meaning |\n| --- | --- | --- | --- |\n")
	for _, k := range keys {
		def := k.Default
		if def != "" {
			def = "`" + def + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", k.Path, mdCell(k.Shape), def, mdCell(k.Doc))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteLimits writes bounds as a markdown table: the constants, their
// values and their reasons.
func WriteLimits(w io.Writer, limits []LimitRef) error {
	var b strings.Builder
	b.WriteString("| bound | value | what it bounds, and why |\n| --- | --- | --- |\n")
	for _, l := range limits {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", codeJoin(l.Names), strings.Join(l.Values, ", "), mdCell(l.Doc))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func codeJoin(names []string) string {
	q := slices.Clone(names)
	for i, n := range q {
		q[i] = "`" + n + "`"
	}
	return strings.Join(q, ", ")
}

// mdCell escapes what would end a markdown table cell, and sets a
// placeholder such as <tier> in code, where markdown would read it as a
// tag and drop it.
func mdCell(s string) string {
	parts := strings.Split(strings.ReplaceAll(s, "|", `\|`), "`")
	for i := 0; i < len(parts); i += 2 {
		parts[i] = mdPlaceholder.ReplaceAllString(parts[i], "`$0`")
	}
	return strings.Join(parts, "`")
}

var mdPlaceholder = regexp.MustCompile(`<[a-z_]+>`)
