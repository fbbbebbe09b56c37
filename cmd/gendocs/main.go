// Command gendocs rewrites the generated regions of the manual (docs/*.md)
// from the code: `go generate ./internal/docgen` runs it. With -check it
// writes nothing and exits 1 when a page is stale.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/offload-sim/offload/internal/docgen"
	"github.com/offload-sim/offload/internal/store"
)

func main() {
	root := flag.String("root", ".", "the module's root folder")
	check := flag.Bool("check", false, "write nothing; exit 1 when a page is stale")
	flag.Parse()
	if err := run(*root, *check); err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
}

func run(root string, check bool) error {
	regions := docgen.Regions(os.DirFS(filepath.Join(root, "internal", "scenario")))
	stale := 0
	for _, page := range docgen.Pages(regions) {
		file := filepath.Join(root, "docs", page)
		old, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		text, err := docgen.Render(page, old, regions)
		if err != nil {
			return err
		}
		if bytes.Equal(old, text) {
			continue
		}
		stale++
		if check {
			fmt.Printf("docs/%s is stale\n", page)
			continue
		}
		if err := store.WriteAtomic(filepath.Dir(file), page, func(w io.Writer) error { _, err := w.Write(text); return err }); err != nil {
			return err
		}
		fmt.Printf("updated docs/%s\n", page)
	}
	if check && stale > 0 {
		return fmt.Errorf("%d page(s) stale: run %s", stale, docgen.Regenerate)
	}
	return nil
}
