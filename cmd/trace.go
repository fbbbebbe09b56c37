package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/offload-sim/offload/internal/store"
	"github.com/offload-sim/offload/internal/trace"
)

// maxTraceInput caps the input of trace convert: read whole, so a bound
// keeps a mistaken path (a disk image) from exhausting memory.
const maxTraceInput = 1 << 30

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
			"  offload trace convert --from swf --size work NASA-iPSC-1993-3.1-cln.swf.gz -o nasa.csv",
		Long: `Convert a recorded workload into the tool's trace format: a CSV with header
arrival_s,size, rows sorted by arrival, arrival_s in seconds since the first row.

  azure-llm  TIMESTAMP, ContextTokens, GeneratedTokens; --size context|generated|total (default total)
  swf        field 2 submit time, field 4 run time; --size runtime|work (run time × processors);
             jobs with run time ≤ 0 or missing fields are skipped and counted
  csv        --arrival COL --size COL, --time-unit s|ms|us

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
	f.StringVarP(&o.out, "output", "o", "", "output file (the tool's trace format)")
	f.BoolVar(&o.force, "force", false, "overwrite an existing output file")
	return c
}

func runTraceConvert(o *traceConvertOptions, in string) error {
	if o.out == "" {
		return badInputf("trace convert: -o OUT.csv is required")
	}
	if !o.force {
		if _, err := os.Lstat(o.out); err == nil {
			return badInputf("%s exists: give --force to overwrite it", o.out)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	b, err := store.ReadRegular(in, maxTraceInput)
	if err != nil {
		return badInput(err)
	}
	o.conv.File = in
	var buf bytes.Buffer
	st, err := trace.Convert(bytes.NewReader(b), &buf, o.conv)
	if err != nil {
		return badInput(err)
	}
	if err := writeFileAtomic(o.out, buf.Bytes()); err != nil {
		return err
	}
	if st.Skipped > 0 {
		fmt.Fprintf(o.io.Err, "%s: skipped %d rows (run time ≤ 0 or missing fields)\n", in, st.Skipped)
	}
	fmt.Fprintf(o.io.Out, "wrote %s (%d rows)\n", o.out, st.Rows)
	return nil
}

// writeFileAtomic writes b to path through a temporary file in the same
// folder and a rename, so that OUT is either absent or complete.
func writeFileAtomic(path string, b []byte) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), ".trace-*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err = f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Chmod(f.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
