// Package experiments embeds the default scenario of each experiment, so that
// every subcommand runs with no file anywhere.
package experiments

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"
)

//go:embed *.yaml
var files embed.FS

// traces are the traces the embedded scenarios replay (trace.file is
// relative to this folder), copies of testdata/traces' conversions.
//
//go:embed traces/*.csv
var traces embed.FS

// Trace returns the embedded trace at path (e.g. traces/azure-llm-code.csv),
// relative to the embedded scenarios' folder.
func Trace(path string) ([]byte, error) {
	b, err := traces.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("no embedded trace %q (an embedded scenario replays one of experiments/traces; give -f for a file of yours)", path)
	}
	return b, nil
}

// Get returns the embedded scenario "<name>.yaml".
func Get(name string) ([]byte, error) {
	b, err := files.ReadFile(name + ".yaml")
	if err != nil {
		return nil, fmt.Errorf("no embedded scenario %q (have: %s)", name, strings.Join(Names(), ", "))
	}
	return b, nil
}

// Names lists the embedded scenarios.
func Names() []string {
	var names []string
	entries, _ := fs.ReadDir(files, ".")
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	return names
}
