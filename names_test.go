package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/reproduce"
)

// experimentNames are the experiments' names: every command's (run's,
// a word of every other use, aside) and a reproduction's own folders.
func experimentNames() []string {
	names := []string{"decision", "exploration", "emulate"}
	for _, s := range reproduce.Specs() {
		if s.Name != "run" {
			names = append(names, s.Name)
		}
	}
	return names
}

// TestExperimentNamesAreConstants: outside tests, an experiment's name is
// written once, as a constant beside its spec, so that an experiment is
// one place; a column, file or label that shares the word is a constant of
// its own. A quoted name anywhere else fails here.
func TestExperimentNamesAreConstants(t *testing.T) {
	names := experimentNames()
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		consts := map[*ast.BasicLit]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			if g, ok := n.(*ast.GenDecl); ok && g.Tok == token.CONST {
				ast.Inspect(g, func(m ast.Node) bool {
					if l, ok := m.(*ast.BasicLit); ok {
						consts[l] = true
					}
					return true
				})
				return false
			}
			if l, ok := n.(*ast.BasicLit); ok && l.Kind == token.STRING && !consts[l] {
				if s, err := strconv.Unquote(l.Value); err == nil && slices.Contains(names, s) {
					t.Errorf("%s: %q is an experiment's name: use its constant (or a constant of its own for a column, file or label that shares the word)", fset.Position(l.Pos()), s)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
