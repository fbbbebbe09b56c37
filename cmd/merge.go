package cmd

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/reproduce"
	"github.com/offload-sim/offload/internal/runner"
)

// mergeOptions are the flags of `offload merge`.
type mergeOptions struct {
	io     IO
	dir    string
	force  bool
	format string
}

func newMergeCmd(io IO) *cobra.Command {
	o := &mergeOptions{io: io}
	c := &cobra.Command{
		Use:   "merge -o OUT DIR...",
		Short: "Merge the shard folders of a sharded run into the files of a single run",
		Long: `Merge the folders written by --shard 0/K … K-1/K of one command (on a Slurm
job array, a Kubernetes Indexed Job, or any machines) into OUT: runs.csv,
summary.csv, the plots and the experiment's own files, byte for byte those of
a single run (manifest timestamps aside). For the shards of reproduce it
merges every experiment and writes claims.md.

Before writing anything it checks that every shard is complete; that the
scenario hash, tool revision, master seed, replicates and K agree; that
shards 0 … K-1 are all there (naming the missing ones, and the sbatch line
that reruns just them); that the shards hold exactly the plan's runs; and
that a shard given twice has the same bytes both times. A failed check exits
2 with nothing written.`,
		Example: "  offload merge -o results/merged results/shard-*",
		Args: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return badInputf("%s: give the shard folders to merge (e.g. results/shard-*)", subPath(c))
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			if !slices.Contains(chart.Formats, o.format) {
				return badInputf("--format %q: allowed: %s", o.format, strings.Join(chart.Formats, ", "))
			}
			if o.dir == "" {
				return badInputf("-o: empty folder name")
			}
			return reproduce.Merge(c.Context(), args, runner.Options{Dir: o.dir, Force: o.force, Format: o.format,
				Command: cmdArgs(c.Context()), Out: io.Out, Err: io.Err})
		},
	}
	fl := c.Flags()
	fl.StringVarP(&o.dir, "out", "o", "results/merged", "output `folder`")
	fl.BoolVar(&o.force, "force", false, "write into a folder that holds another scenario's results")
	fl.StringVar(&o.format, "format", "png", "plot format: png, svg or pdf")
	return c
}
