package scenario

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The key reference of docs/scenario.md, written from the scenario types:
// every key by reflection on Scenario's yaml tags, what a value looks like
// (describe, as the error messages say it), its default from Default and
// the catalog, and its meaning from the field's doc comment; and every
// bound with its value and reason from the constants' doc comments. The
// comments are read from the package's source, which the caller hands in
// (this package reads no file of its own accord); a test fails when the
// page is stale.

// KeyRef is one key of a scenario file.
type KeyRef struct {
	Path    string // dotted, a list's items as [] (tiers[].servers)
	Shape   string // what a value looks like: "a number", "a mapping (…)"
	Default string // "" when none
	Doc     string
}

// LimitRef is one bound of Validate: its constants, their values and why.
type LimitRef struct {
	Names, Values []string
	Doc           string
}

// Reference reads the key and limit reference from the package's source
// files in src (the non-test .go files of internal/scenario) and the
// policy catalog pols (the default policy list).
func Reference(src fs.FS, pols Policies) ([]KeyRef, []LimitRef, error) {
	docs, consts, err := readSource(src)
	if err != nil {
		return nil, nil, err
	}
	k := keyWalker{docs: docs, seen: map[reflect.Type]string{}, pols: pols}
	if err := k.walk(reflect.TypeFor[Scenario](), reflect.ValueOf(Default()), ""); err != nil {
		return nil, nil, err
	}
	return k.refs, consts, nil
}

// fieldDoc is a struct field's comment: its doc block, or its line comment.
type fieldDoc map[string]map[string]string // type name → Go field name → text

type keyWalker struct {
	docs fieldDoc
	seen map[reflect.Type]string // struct types already expanded, at which path
	pols Policies
	refs []KeyRef
}

func (k *keyWalker) walk(t reflect.Type, def reflect.Value, prefix string) error {
	for i := range t.NumField() {
		f := t.Field(i)
		name := yamlName(f)
		if name == "" {
			continue
		}
		path := name
		if prefix != "" {
			path = prefix + "." + name
		}
		doc, ok := k.docs[t.Name()][f.Name]
		if !ok {
			return fmt.Errorf("scenario.%s.%s (%s) has no doc comment: say what it is, with its unit", t.Name(), f.Name, path)
		}
		ref := KeyRef{Path: path, Shape: shapeOf(f.Type), Doc: userDoc(doc, f.Name, t)}
		var dv reflect.Value
		if def.IsValid() {
			dv = def.Field(i)
			ref.Default = defaultOf(dv)
		}
		if f.Type == policyEntryType || (f.Type.Kind() == reflect.Slice && f.Type.Elem() == policyEntryType) {
			if k.pols != nil {
				ref.Default = strings.Join(k.pols.Defaults(), ", ")
			}
			k.refs = append(k.refs, ref)
			continue
		}
		et := f.Type
		item := path
		for et.Kind() == reflect.Pointer || (et.Kind() == reflect.Slice && et != thresholdsType) {
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
			continue
		}
		if at, done := k.seen[et]; done {
			ref.Shape = describe(f.Type)
			ref.Doc = strings.TrimSuffix(ref.Doc, ".") + ". Its keys are those of `" + at + "`."
			k.refs = append(k.refs, ref)
			continue
		}
		k.seen[et] = item
		k.refs = append(k.refs, ref)
		if err := k.walk(et, dv, item); err != nil {
			return err
		}
	}
	return nil
}

// shapeOf says what a key's value looks like, as the error messages say it
// (describe), but without a mapping's keys, which the rows after it list.
func shapeOf(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t.Kind() == reflect.Bool:
		return "true or false"
	case t.Kind() == reflect.Struct && t != policyEntryType:
		return "a mapping"
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct && t.Elem() != policyEntryType:
		return "a list of mappings"
	}
	return describe(t)
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
		if n := yamlName(f); n != "" {
			doc = regexp.MustCompile(`\b`+f.Name+`\b`).ReplaceAllString(doc, "`"+n+"`")
		}
	}
	return doc
}

// docLead is a doc comment's subject: "Field is ", "Field and Other are ",
// "Field: ", "Field, if set, ", or the bare name before its verb.
var docLead = regexp.MustCompile(`^([A-Z]\w*)(?: and ([A-Z]\w*))?(?: (?:is|are) |: |, if set, | |,)`)

// readSource reads the doc comments of every struct field, and every
// exported Min*/Max* constant with its value and doc comment, from the
// package's non-test Go files.
func readSource(src fs.FS) (fieldDoc, []LimitRef, error) {
	names, err := fs.Glob(src, "*.go")
	if err != nil {
		return nil, nil, err
	}
	fset := token.NewFileSet()
	docs := fieldDoc{}
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		b, err := fs.ReadFile(src, n)
		if err != nil {
			return nil, nil, err
		}
		f, err := parser.ParseFile(fset, n, b, parser.ParseComments)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, nil, fmt.Errorf("no Go files of package scenario in the source given")
	}
	values := map[string]constant.Value{}
	var specs []*ast.ValueSpec
	var groupDocs []*ast.CommentGroup
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, s := range g.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if st, ok := s.Type.(*ast.StructType); ok {
						docs[s.Name.Name] = structDocs(st)
					}
				case *ast.ValueSpec:
					if g.Tok == token.CONST {
						specs = append(specs, s)
						doc := s.Doc
						if doc == nil && g.Doc != nil && (len(g.Specs) == 1 || strings.Contains(g.Doc.Text(), s.Names[0].Name)) {
							doc = g.Doc // a group's comment naming its constants
						}
						groupDocs = append(groupDocs, doc)
					}
				}
			}
		}
	}
	// Constants may name constants declared later or in other files: evaluate
	// until nothing more resolves.
	for progress := true; progress; {
		progress = false
		for _, s := range specs {
			for i, n := range s.Names {
				if _, done := values[n.Name]; done || i >= len(s.Values) {
					continue
				}
				if v := evalConst(s.Values[i], values); v != nil {
					values[n.Name] = v
					progress = true
				}
			}
		}
	}
	var limits []LimitRef
	for j, s := range specs {
		var l LimitRef
		for _, n := range s.Names {
			if !n.IsExported() || !(strings.HasPrefix(n.Name, "Max") || strings.HasPrefix(n.Name, "Min")) {
				continue
			}
			v, ok := values[n.Name]
			if !ok {
				return nil, nil, fmt.Errorf("constant %s: cannot evaluate its value", n.Name)
			}
			l.Names = append(l.Names, n.Name)
			l.Values = append(l.Values, formatLimit(v))
		}
		if len(l.Names) == 0 {
			continue
		}
		if n := len(limits); n > 0 && groupDocs[j] != nil && j > 0 && groupDocs[j-1] == groupDocs[j] {
			limits[n-1].Names = append(limits[n-1].Names, l.Names...) // one comment, one row
			limits[n-1].Values = append(limits[n-1].Values, l.Values...)
			continue
		}
		if groupDocs[j] == nil {
			return nil, nil, fmt.Errorf("constant %s has no doc comment: say what it bounds and why", strings.Join(l.Names, ", "))
		}
		l.Doc = strings.Join(strings.Fields(groupDocs[j].Text()), " ")
		if m := limitLead.FindString(l.Doc); m != "" {
			l.Doc = l.Doc[len(m):] // "MinRate and MaxRate bound …": the row names them
		}
		limits = append(limits, l)
	}
	return docs, limits, nil
}

// limitLead is a bound's doc comment's subject: its names and verb.
var limitLead = regexp.MustCompile(`^(?:(?:Min|Max)\w*(?:, | and )?)+ (?:bounds?|is) `)

func structDocs(st *ast.StructType) map[string]string {
	m := map[string]string{}
	prev := ""
	for _, f := range st.Fields.List {
		text := ""
		if f.Doc != nil {
			text = f.Doc.Text()
		}
		if f.Comment != nil {
			text = strings.TrimSpace(text + " " + f.Comment.Text())
		}
		for _, n := range f.Names {
			if text == "" && regexp.MustCompile(`\band `+n.Name+`\b`).MatchString(prev) {
				text = prev // "File and Column are …", written once above the two
			}
			m[n.Name] = text
		}
		prev = text
	}
	return m
}

// evalConst evaluates a constant expression of literals, constants already
// known, unary and binary operators and shifts; nil when it cannot.
func evalConst(e ast.Expr, known map[string]constant.Value) constant.Value {
	switch e := e.(type) {
	case *ast.BasicLit:
		return constant.MakeFromLiteral(e.Value, e.Kind, 0)
	case *ast.Ident:
		return known[e.Name]
	case *ast.ParenExpr:
		return evalConst(e.X, known)
	case *ast.UnaryExpr:
		if x := evalConst(e.X, known); x != nil {
			return constant.UnaryOp(e.Op, x, 0)
		}
	case *ast.BinaryExpr:
		x, y := evalConst(e.X, known), evalConst(e.Y, known)
		if x == nil || y == nil {
			return nil
		}
		if e.Op == token.SHL || e.Op == token.SHR {
			s, ok := constant.Uint64Val(y)
			if !ok {
				return nil
			}
			return constant.Shift(x, e.Op, uint(s))
		}
		return constant.BinaryOp(x, e.Op, y)
	}
	return nil
}

// formatLimit writes a bound as a reader compares it: 10⁹ for a large or
// small power of ten, 100,000 for an integer, else the shortest float.
func formatLimit(v constant.Value) string {
	x, _ := constant.Float64Val(constant.ToFloat(v))
	if x > 0 {
		if e := math.Round(math.Log10(x)); math.Pow(10, e) == x && (e >= 6 || e <= -3) {
			return "10" + superscript(int(e))
		}
	}
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		s := strconv.FormatInt(int64(x), 10)
		for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
			s = s[:i] + "," + s[i:]
		}
		return s
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

func superscript(n int) string {
	const digits = "⁰¹²³⁴⁵⁶⁷⁸⁹"
	sup := []rune(digits)
	var b strings.Builder
	if n < 0 {
		b.WriteRune('⁻')
		n = -n
	}
	for _, c := range strconv.Itoa(n) {
		b.WriteRune(sup[c-'0'])
	}
	return b.String()
}

// WriteKeyReference writes the key reference as a markdown table: every
// key of a scenario file in declaration order, what its value looks like,
// its default and its meaning.
func WriteKeyReference(w io.Writer, src fs.FS, pols Policies) error {
	keys, _, err := Reference(src, pols)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("| key | value | default | meaning |\n| --- | --- | --- | --- |\n")
	for _, k := range keys {
		def := k.Default
		if def != "" {
			def = "`" + def + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", k.Path, mdCell(k.Shape), def, mdCell(k.Doc))
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// WriteLimitReference writes the bounds Validate enforces as a markdown
// table: the constants, their values and their reasons.
func WriteLimitReference(w io.Writer, src fs.FS) error {
	_, limits, err := Reference(src, nil)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("| bound | value | what it bounds, and why |\n| --- | --- | --- |\n")
	for _, l := range limits {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", codeJoin(l.Names), strings.Join(l.Values, ", "), mdCell(l.Doc))
	}
	_, err = io.WriteString(w, b.String())
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
