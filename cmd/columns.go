package cmd

import (
	"github.com/offload-sim/offload/internal/results"
	"github.com/spf13/cobra"
)

// newColumnsCmd is `offload columns`: the reference of runs.csv's and
// summary.csv's columns, as docs/outputs.md has it, written from the
// results schema.
func newColumnsCmd(io IO) *cobra.Command {
	return &cobra.Command{
		Use:   "columns",
		Short: "Print the reference of runs.csv's and summary.csv's columns",
		Long: `Print every column of runs.csv (and how summary.csv is built from them) with
its unit, when a file has it and what it means, as a markdown table: the
same table as docs/outputs.md, written from the results schema of this
binary. A pattern such as share_<tier> is shown with its columns for the
default continuum's tiers (share_local, share_edge, share_cloud).`,
		Example: "  offload columns\n  offload columns | grep share_",
		Args:    noArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return results.WriteColumnReference(io.Out)
		},
	}
}
