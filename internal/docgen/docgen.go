// Package docgen keeps the reference tables of the manual made from the
// code: the regions of docs/*.md between
//
//	<!-- generated: NAME -->
//	…
//	<!-- end generated -->
//
// are written by the library's own reference writers (the runs.csv
// columns from internal/results, the policies from the registry, the
// scenario keys and bounds from internal/scenario's types) and by cmd's
// (every command's help, from the Cobra tree), and it checks
// that every relative link of the README and the manual resolves to a file
// and, for a #fragment, to a heading.
//
// `go generate ./internal/docgen` (cmd/gendocs) rewrites the regions; a
// test fails, naming the page and that command, when one is stale. Like
// every library package it reads only what it is handed.
package docgen

//go:generate go run ../../cmd/gendocs -root ../..

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"slices"

	"github.com/offload-sim/offload/cmd"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/scenario"
)

// Region is one generated region of a page of the manual.
type Region struct {
	Page  string // under docs/, e.g. "outputs.md"
	Name  string // the marker's name
	Write func(w io.Writer) error
}

// Regenerate is the command that rewrites the regions, for messages.
const Regenerate = "go generate ./internal/docgen"

// Regions lists every generated region. scenarioSrc is internal/scenario's
// source folder (its parts' packages in folders below), whose doc comments
// give the keys' and bounds' meanings.
func Regions(scenarioSrc fs.FS) []Region {
	return []Region{
		{"outputs.md", "columns", results.WriteColumnReference},
		{"policies.md", "policies", policies.WriteReference},
		{"scenario.md", "keys", func(w io.Writer) error { return scenario.WriteKeyReference(w, scenarioSrc, experiment.Catalog()) }},
		{"scenario.md", "limits", func(w io.Writer) error { return scenario.WriteLimitReference(w, scenarioSrc) }},
		{"commands.md", "commands", cmd.WriteCommandReference},
	}
}

// Pages lists the pages that hold generated regions, in order.
func Pages(regions []Region) []string {
	var pages []string
	for _, r := range regions {
		if !slices.Contains(pages, r.Page) {
			pages = append(pages, r.Page)
		}
	}
	return pages
}

var marker = regexp.MustCompile(`<!-- generated: ([a-z0-9-]+) -->\n`)

const endMarker = "<!-- end generated -->"

// Render returns the page named page with each of its regions rewritten
// by its writer. A marker without a writer, a writer without its marker
// in the page, or a region without its end is an error.
func Render(page string, text []byte, regions []Region) ([]byte, error) {
	var out bytes.Buffer
	done := map[string]bool{}
	rest := text
	for {
		loc := marker.FindSubmatchIndex(rest)
		if loc == nil {
			out.Write(rest)
			break
		}
		name := string(rest[loc[2]:loc[3]])
		i := slices.IndexFunc(regions, func(r Region) bool { return r.Page == page && r.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("docs/%s: region %q has no generator in internal/docgen", page, name)
		}
		if done[name] {
			return nil, fmt.Errorf("docs/%s: region %q appears twice", page, name)
		}
		end := bytes.Index(rest[loc[1]:], []byte(endMarker))
		if end < 0 {
			return nil, fmt.Errorf("docs/%s: region %q has no %q", page, name, endMarker)
		}
		out.Write(rest[:loc[1]])
		if err := regions[i].Write(&out); err != nil {
			return nil, fmt.Errorf("docs/%s: region %q: %w", page, name, err)
		}
		done[name] = true
		rest = rest[loc[1]+end:]
	}
	for _, r := range regions {
		if r.Page == page && !done[r.Name] {
			return nil, fmt.Errorf("docs/%s: no region %q (want a line <!-- generated: %s --> and, after it, %s)", page, r.Name, r.Name, endMarker)
		}
	}
	return out.Bytes(), nil
}
