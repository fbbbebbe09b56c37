package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The function size limits (docs/layout.md): a function longer than
// maxFuncLines does several things that want names of their own, and the
// sizes' 90th percentile at most p90FuncLines keeps the typical piece
// readable at a glance. A size counts every line from func to the closing
// brace, comments and blank lines included.
const (
	maxFuncLines = 80
	p90FuncLines = 30
)

// funcSize is one function (or method) and its length in lines.
type funcSize struct {
	name  string // file:line name
	lines int
}

// TestFuncSize parses every non-test .go file of the module and fails on
// a function over maxFuncLines, or on a 90th percentile of the sizes over
// p90FuncLines, naming the longest.
func TestFuncSize(t *testing.T) {
	sizes, err := funcSizes(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(sizes) == 0 {
		t.Fatal("no functions found")
	}
	slices.SortFunc(sizes, func(a, b funcSize) int { return b.lines - a.lines })
	for _, f := range sizes {
		if f.lines <= maxFuncLines {
			break
		}
		t.Errorf("%s is %d lines: at most %d (split it where it does two things)", f.name, f.lines, maxFuncLines)
	}
	// sizes is longest first: the 90th percentile of the ascending order.
	if p90 := sizes[len(sizes)-1-len(sizes)*9/10].lines; p90 > p90FuncLines {
		over := 0
		for _, f := range sizes {
			if f.lines > p90FuncLines {
				over++
			}
		}
		t.Errorf("the 90th percentile of %d functions' sizes is %d lines: at most %d (%d are over %d; the longest: %s)",
			len(sizes), p90, p90FuncLines, over, p90FuncLines, longest(sizes, 5))
	}
}

// funcSizes measures every function with a body in the non-test .go files
// under root, leaving out testdata, hidden folders and nested modules.
func funcSizes(root string) ([]funcSize, error) {
	fset := token.NewFileSet()
	var sizes []funcSize
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return skipDir(p, root, d.Name())
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body != nil {
				start, end := fset.Position(fd.Pos()), fset.Position(fd.End())
				sizes = append(sizes, funcSize{fmt.Sprintf("%s:%d %s", p, start.Line, fd.Name.Name), end.Line - start.Line + 1})
			}
		}
		return nil
	})
	return sizes, err
}

// skipDir says whether the walk leaves out folder p (named name).
func skipDir(p, root, name string) error {
	if p == root {
		return nil
	}
	if name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
		return filepath.SkipDir
	}
	if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
		return filepath.SkipDir
	}
	return nil
}

// longest lists the first n of sizes (longest first) with their lengths.
func longest(sizes []funcSize, n int) string {
	var b strings.Builder
	for i, f := range sizes[:min(n, len(sizes))] {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s (%d)", f.name, f.lines)
	}
	return b.String()
}
