package cmd

import (
	"fmt"
	"io"
	"path/filepath"
)

func fmtPath(dir, name string) string { return filepath.Join(dir, name) }

func noteWritten(w io.Writer, paths ...string) {
	for _, p := range paths {
		fmt.Fprintln(w, "wrote", p)
	}
}
