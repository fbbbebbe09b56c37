package cmd

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/reproduce"
	"github.com/offload-sim/offload/internal/results"
)

// registerCompletions gives shell completion (cobra's `offload completion
// SHELL`) the words a flag takes, on every command that has the flag: policy
// names for --policy, --router and --baseline, the scales, the plot formats,
// a results folder's columns for plot --y and --x, YAML files for -f and
// folders for -o and for a results folder argument.
// Done in one pass over the tree so that a new command gets them by having
// the flag.
func registerCompletions(root *cobra.Command) {
	scales := make([]string, 0, len(reproduce.Scales()))
	for k := range reproduce.Scales() {
		scales = append(scales, k)
	}
	slices.Sort(scales)
	words := map[string][]string{
		"policy":   policies.Names(),
		"router":   policies.Names(),
		"baseline": policies.Names(),
		"scale":    scales,
		"format":   {"png", "svg", "pdf"},
	}
	folderArgs := map[string]bool{"report": true, "plot": true, "compare": true, "merge": true}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for name, ws := range words {
			if c.Flags().Lookup(name) != nil {
				_ = c.RegisterFlagCompletionFunc(name, completeList(ws, name == "policy"))
			}
		}
		if f := c.Flags().Lookup("file"); f != nil && f.Shorthand == "f" {
			_ = c.MarkFlagFilename("file", "yaml", "yml")
		}
		if c.Flags().Lookup("out") != nil {
			_ = c.MarkFlagDirname("out")
		}
		if c.Name() == "plot" {
			for _, f := range []string{"y", "x"} {
				_ = c.RegisterFlagCompletionFunc(f, completeColumns)
			}
		}
		if folderArgs[c.Name()] && c.ValidArgsFunction == nil {
			c.ValidArgsFunction = func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
				return nil, cobra.ShellCompDirectiveFilterDirs
			}
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
}

// completeList completes one word of ws, or the last item of a
// comma-separated list (--policy a,b takes several): the items already
// typed are kept in front of each candidate. A list's completion adds no
// space, so that a comma can follow.
func completeList(ws []string, list bool) cobra.CompletionFunc {
	dir := cobra.ShellCompDirectiveNoFileComp
	if list {
		dir |= cobra.ShellCompDirectiveNoSpace
	}
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		head, last := "", toComplete
		if i := strings.LastIndexByte(toComplete, ','); i >= 0 {
			head, last = toComplete[:i+1], toComplete[i+1:]
		}
		var out []string
		for _, w := range ws {
			if strings.HasPrefix(w, last) && !slices.Contains(strings.Split(head, ","), w) {
				out = append(out, head+w)
			}
		}
		return out, dir
	}
}

// completeColumns completes plot's --y (and --x) with the metric columns
// of the folder's summary.csv, once the folder is on the command line;
// before it, or for a folder without one, with the columns every run has.
func completeColumns(_ *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	names := results.Names(results.RunColumns(results.Layout{}))
	if len(args) > 0 {
		if f, err := os.Open(filepath.Join(args[0], "summary.csv")); err == nil {
			if ms, err := results.SummaryMetrics(f); err == nil {
				names = ms
			}
			f.Close()
		}
	}
	return completeList(names, false)(nil, nil, toComplete)
}
