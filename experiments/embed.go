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
