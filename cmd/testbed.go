package cmd

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// testbedCommands are the HTTP emulation commands (docs/design.md §7).
func testbedCommands(io IO) []*cobra.Command {
	return []*cobra.Command{newServeTierCmd(io, nil), newEmulateCmd(io, nil)}
}

// parseTierURLs reads --tier name=URL flags against the scenario's tiers.
func parseTierURLs(flags []string, tiers []string) (map[string]string, error) {
	out := map[string]string{}
	for _, f := range flags {
		name, url, ok := strings.Cut(f, "=")
		if !ok || name == "" || !(strings.HasPrefix(url, "http://") || strings.HasPrefix(url, "https://")) {
			return nil, badInputf("--tier %q: want name=http://host:port", f)
		}
		if !slices.Contains(tiers, name) {
			return nil, badInputf("--tier %q: the scenario has no tier %q (tiers: %s)", f, name, strings.Join(tiers, ", "))
		}
		if _, dup := out[name]; dup {
			return nil, badInputf("--tier %q: tier %s given twice", f, name)
		}
		out[name] = strings.TrimSuffix(url, "/")
	}
	return out, nil
}

// checkTimeScale refuses a time-scale that is not a positive finite number.
func checkTimeScale(x float64) error {
	if !(x > 0) || x > 1e6 {
		return badInputf("--time-scale %v is out of range: must be in (0, 1e6] (wall seconds per model second; 1 is real time)", x)
	}
	return nil
}
