package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/offload-sim/offload/experiments"
	"github.com/offload-sim/offload/internal/emulate"
	"github.com/offload-sim/offload/internal/reproduce"
)

// experimentNames are the experiments' names, from the registry and the
// embedded scenarios (every experiments/<name>.yaml): every command's
// (run's, a word of every other use, aside), a reproduction's own
// experiments and the reproduction itself, the emulation, and the
// scenarios that no command embeds (a variant of an experiment's, a
// learner's).
func experimentNames() []string {
	var names []string
	for _, n := range slices.Concat(reproduce.Names(), []string{emulate.Name}, experiments.Names()) {
		if n != "run" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

// namesIn reports why the literal s writes one of names (as an
// experiment's name rather than as a word of prose), or "". A name is
// written when s is the name; when s begins with the name and a colon, a
// string verb or a possessive ("energy: …", "reproduce %s …", "emulate's
// …"), the form of a message that fmt and the name's constant make ("burst
// %d", a burst's number, is a word); when " of NAME:"
// or " of NAME's" names the experiment inside a message; and when s names
// three or more experiments as words, a hand copy of a list the registry
// gives. A name inside a path or a file name (experiments/NAME.yaml,
// results/NAME) is not a word of it.
func namesIn(s string, names []string) string {
	if slices.Contains(names, s) {
		return "is an experiment's name"
	}
	var words []string
	for _, n := range names {
		q := regexp.QuoteMeta(n)
		if regexp.MustCompile(`^` + q + `(:|'s| %[sqv])|\bof ` + q + `(:|'s)`).MatchString(s) {
			return "names the experiment " + strconv.Quote(n)
		}
		if regexp.MustCompile(`(^|[^\w./<-])` + q + `($|[^\w./-])`).MatchString(s) {
			words = append(words, n)
		}
	}
	if len(words) >= 3 {
		return "lists the experiments " + strings.Join(words, ", ")
	}
	return ""
}

// TestExperimentNamesAreConstants: outside tests, an experiment's name is
// written once, as a constant beside its spec, so that an experiment is
// one place; a column, file or label that shares the word is a constant of
// its own. A quoted name anywhere else, or a message or list that writes
// one (namesIn), fails here.
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
				if s, err := strconv.Unquote(l.Value); err == nil {
					if why := namesIn(s, names); why != "" {
						if r := []rune(s); len(r) > 60 {
							s = string(r[:60]) + "…"
						}
						t.Errorf("%s: %q %s: use its constant (or a constant of its own for a column, file or label that shares the word)", fset.Position(l.Pos()), s, why)
					}
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

// TestNamesInCatchesMessages: the rules of namesIn, on the forms a name
// takes in a message and on prose that shares the words.
func TestNamesInCatchesMessages(t *testing.T) {
	names := []string{"energy", "reproduce", "emulate", "default", "burst", "mape", "sweep-load"}
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"energy", true},
		{"energy: the scenario has no energy model", true},
		{"reproduce %s %q emulate=%v", true},
		{"shard %s of reproduce: claims.md comes from merge", true},
		{"merge: %s is not shard %s of reproduce's %s", true},
		{"Run sweep-load, mape, burst and staleness", true},
		{"master seed (default: the scenario's)", false},
		{"energy caused per task (J)", false},
		{"to the next burst's start", false},
		{"burst %d of %d", false},
		{"  offload mape -o results/mape", false},
		{"experiments/sweep-load.yaml sweeps the load", false},
	} {
		if got := namesIn(c.s, names) != ""; got != c.want {
			t.Errorf("namesIn(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}
