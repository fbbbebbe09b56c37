package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/offload-sim/offload/internal/runner"
	"github.com/offload-sim/offload/internal/store"
	"github.com/offload-sim/offload/internal/trace"
)

// traceConvertOptions are the flags of `offload trace convert`.
type traceConvertOptions struct {
	io    IO
	conv  trace.Options
	out   string
	force bool
}

func newTraceCmd(io IO) *cobra.Command {
	c := &cobra.Command{
		Use:   "trace",
		Short: "Convert recorded workloads into the tool's trace format",
		Args:  noArgs,
	}
	c.AddCommand(newTraceConvertCmd(io))
	return c
}

func newTraceConvertCmd(io IO) *cobra.Command {
	o := &traceConvertOptions{io: io}
	c := &cobra.Command{
		Use:   "convert --from azure-llm|swf|csv IN -o OUT.csv",
		Short: "Convert a trace (Azure LLM, SWF, CSV; gzip or not) to arrival_s,size",
		Example: "  offload trace convert --from azure-llm AzureLLMInferenceTrace_code.csv -o azure.csv\n" +
			"  offload trace convert --from swf --size work NASA-iPSC-1993-3.1-cln.swf.gz -o nasa.csv\n" +
			"  offload trace convert --from azure-llm --keep ContextTokens,GeneratedTokens AzureLLMInferenceTrace_code.csv -o azure.csv",
		Long: `Convert a recorded workload into the tool's trace format: a CSV with header
arrival_s,size, rows sorted by arrival, arrival_s in seconds since the first row.

  azure-llm  TIMESTAMP, ContextTokens, GeneratedTokens; --size context|generated|total (default total)
  swf        field 2 submit time, field 4 run time; --size runtime|work (run time × processors);
             jobs with run time ≤ 0 or missing fields are skipped and counted
  csv        --arrival COL --size COL, --time-unit s|ms|us

--keep COL,... copies raw columns after arrival_s,size, as they are in the
input (for swf by field name: job, submit, wait, runtime, processors, cpu,
memory, req_processors, req_time, req_memory, status, user, group,
executable, queue, partition, preceding_job, think_time), so that a scenario's
empirical size law can draw from them (workload.size: {dist: empirical,
file: OUT.csv, column: COL}).

IN may be gzip-compressed. Bad input is reported as file:line: column: message
(exit status 2) and no output is written. OUT is written atomically and never
overwritten unless --force.`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) != 1 {
				return badInputf("%s takes one input file, got %d", c.CommandPath(), len(args))
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error { return runTraceConvert(o, args[0]) },
	}
	f := c.Flags()
	f.StringVar(&o.conv.From, "from", "", "input format: azure-llm, swf or csv")
	f.StringVar(&o.conv.Size, "size", "", "azure-llm: context|generated|total; swf: runtime|work; csv: the size column")
	f.StringVar(&o.conv.Arrival, "arrival", "", "csv: the arrival-time column")
	f.StringVar(&o.conv.TimeUnit, "time-unit", "s", "csv: unit of the arrival column: s, ms or us")
	f.StringSliceVar(&o.conv.Keep, "keep", nil, "raw columns to copy after arrival_s,size (csv, azure-llm: header names; swf: field names such as processors,wait,user)")
	f.StringVarP(&o.out, "output", "o", "", "output file (the tool's trace format)")
	f.BoolVar(&o.force, "force", false, "overwrite an existing output file")
	return c
}

func runTraceConvert(o *traceConvertOptions, in string) error {
	if o.out == "" {
		return badInputf("trace convert: -o OUT.csv is required")
	}
	st, err := convertTrace(in, o.out, o.force, o.conv)
	if err != nil {
		return err
	}
	if st.Skipped > 0 {
		fmt.Fprintf(o.io.Err, "%s: skipped %d rows (run time ≤ 0 or missing fields)\n", in, st.Skipped)
	}
	fmt.Fprintf(o.io.Out, "wrote %s (%d rows)\n", o.out, st.Rows)
	return nil
}

// convertTrace converts the trace file in into the tool's trace format at
// out (atomically; an existing out only with force). Bad input is bad input
// (exit 2) with the file, line and column, and nothing is written.
func convertTrace(in, out string, force bool, o trace.Options) (trace.Stats, error) {
	if !force {
		if _, err := os.Lstat(out); err == nil {
			return trace.Stats{}, runner.BadInputf("%s exists: give --force to overwrite it", out)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return trace.Stats{}, err
		}
	}
	b, err := store.ReadRegular(in, runner.MaxTraceInput)
	if err != nil {
		return trace.Stats{}, runner.BadInput(err)
	}
	o.File = in
	var buf bytes.Buffer
	st, err := trace.Convert(bytes.NewReader(b), &buf, o)
	if err != nil {
		return trace.Stats{}, runner.BadInput(err)
	}
	err = store.WriteAtomic(filepath.Dir(out), filepath.Base(out), func(w io.Writer) error { _, err := w.Write(buf.Bytes()); return err })
	if err != nil {
		return trace.Stats{}, fmt.Errorf("trace convert: %w", err)
	}
	return st, nil
}
