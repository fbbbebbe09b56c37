package schema

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"io/fs"
	"math"
	pathpkg "path"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Source is what a package's Go source says of its schema: every struct
// field's doc comment, and every exported Min*/Max* constant with its value
// and reason. The comments are read from source the caller hands in (this
// package reads no file of its own accord).
type Source struct {
	Pkg    string                       // the package's name, for messages
	Docs   map[string]map[string]string // type name → Go field name → doc block or line comment
	Limits []LimitRef
}

// LimitRef is one bound: its constants, their values and why.
type LimitRef struct {
	Names, Values []string
	Doc           string
}

// constSpec is a constant declaration and the comment that documents it.
type constSpec struct {
	spec *ast.ValueSpec
	doc  *ast.CommentGroup
}

// ReadSource reads the non-test Go files of package pkg in src, and those
// of its sub-packages in src's folders subs: the parts of a schema its
// package declares elsewhere and names by alias. Their files are read in
// the order of their names, whatever their folder, so that the bounds keep
// their order when a file moves to a sub-package; a constant that only
// names another package's (a re-export) is documented there, not again.
func ReadSource(src fs.FS, pkg string, subs ...string) (*Source, error) {
	files, err := parseFiles(src, subs)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no Go files of package %s in the source given", pkg)
	}
	s := &Source{Pkg: pkg, Docs: map[string]map[string]string{}}
	var consts []constSpec
	for _, f := range files {
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok {
				if consts, err = s.readDecl(g, consts); err != nil {
					return nil, err
				}
			}
		}
	}
	s.Limits, err = limits(consts, evalAll(consts))
	if err != nil {
		return nil, err
	}
	return s, nil
}

// parseFiles parses the non-test Go files of src and of its folders subs,
// comments kept, in the order of their names (a tie in the order of the
// folders, src's first).
func parseFiles(src fs.FS, subs []string) ([]*ast.File, error) {
	var names []string
	for _, dir := range append([]string{"."}, subs...) {
		in, err := fs.Glob(src, pathpkg.Join(dir, "*.go"))
		if err != nil {
			return nil, err
		}
		if len(in) == 0 && dir != "." {
			return nil, fmt.Errorf("no Go files in folder %s of the source given", dir)
		}
		names = append(names, in...)
	}
	slices.SortStableFunc(names, func(a, b string) int { return strings.Compare(pathpkg.Base(a), pathpkg.Base(b)) })
	fset := token.NewFileSet()
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		b, err := fs.ReadFile(src, n)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, n, b, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// readDecl keeps a struct type's field docs, and appends the constants of
// a const declaration with their docs. Docs are found by type name, so a
// name declared in two of the packages read is an error.
func (s *Source) readDecl(g *ast.GenDecl, consts []constSpec) ([]constSpec, error) {
	for _, sp := range g.Specs {
		switch sp := sp.(type) {
		case *ast.TypeSpec:
			if st, ok := sp.Type.(*ast.StructType); ok {
				if _, dup := s.Docs[sp.Name.Name]; dup {
					return nil, fmt.Errorf("type %s is declared twice in the packages of %s: its fields' docs would be ambiguous", sp.Name.Name, s.Pkg)
				}
				s.Docs[sp.Name.Name] = structDocs(st)
			}
		case *ast.ValueSpec:
			if g.Tok == token.CONST && !reexport(sp) {
				doc := sp.Doc
				if doc == nil && g.Doc != nil && (len(g.Specs) == 1 || strings.Contains(g.Doc.Text(), sp.Names[0].Name)) {
					doc = g.Doc // a group's comment naming its constants
				}
				consts = append(consts, constSpec{sp, doc})
			}
		}
	}
	return consts, nil
}

// reexport reports whether a constant declaration only names another
// package's constants (scenario.MaxSpan = limit.MaxSpan).
func reexport(sp *ast.ValueSpec) bool {
	for _, v := range sp.Values {
		if _, ok := v.(*ast.SelectorExpr); !ok {
			return false
		}
	}
	return len(sp.Values) > 0
}

// evalAll evaluates the constants. They may name constants declared later
// or in other files: evaluate until nothing more resolves.
func evalAll(consts []constSpec) map[string]constant.Value {
	values := map[string]constant.Value{}
	for progress := true; progress; {
		progress = false
		for _, c := range consts {
			for i, n := range c.spec.Names {
				if _, done := values[n.Name]; done || i >= len(c.spec.Values) {
					continue
				}
				if v := evalConst(c.spec.Values[i], values); v != nil {
					values[n.Name] = v
					progress = true
				}
			}
		}
	}
	return values
}

// limits lists the exported Min*/Max* constants, one row per comment.
func limits(consts []constSpec, values map[string]constant.Value) ([]LimitRef, error) {
	var out []LimitRef
	for j, c := range consts {
		var l LimitRef
		for _, n := range c.spec.Names {
			if !n.IsExported() || !(strings.HasPrefix(n.Name, "Max") || strings.HasPrefix(n.Name, "Min")) {
				continue
			}
			v, ok := values[n.Name]
			if !ok {
				return nil, fmt.Errorf("constant %s: cannot evaluate its value", n.Name)
			}
			l.Names = append(l.Names, n.Name)
			l.Values = append(l.Values, formatLimit(v))
		}
		if len(l.Names) == 0 {
			continue
		}
		if n := len(out); n > 0 && c.doc != nil && j > 0 && consts[j-1].doc == c.doc {
			out[n-1].Names = append(out[n-1].Names, l.Names...) // one comment, one row
			out[n-1].Values = append(out[n-1].Values, l.Values...)
			continue
		}
		if c.doc == nil {
			return nil, fmt.Errorf("constant %s has no doc comment: say what it bounds and why", strings.Join(l.Names, ", "))
		}
		l.Doc = strings.Join(strings.Fields(c.doc.Text()), " ")
		if m := limitLead.FindString(l.Doc); m != "" {
			l.Doc = l.Doc[len(m):] // "MinRate and MaxRate bound …": the row names them
		}
		out = append(out, l)
	}
	return out, nil
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
