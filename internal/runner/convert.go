package runner

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/offload-sim/offload/experiments"
	"github.com/offload-sim/offload/internal/scenario"
	"github.com/offload-sim/offload/internal/store"
	"github.com/offload-sim/offload/internal/trace"
)

// MaxTraceInput caps a trace file read whole (trace convert, a replayed
// trace): a bound keeps a mistaken path (a disk image) from exhausting
// memory.
const MaxTraceInput = 1 << 30

// ConvertTrace converts the trace file in into the tool's trace format at
// out (atomically; an existing out only with force). Bad input is bad input
// (exit 2) with the file, line and column, and nothing is written.
func ConvertTrace(in, out string, force bool, o trace.Options) (trace.Stats, error) {
	if !force {
		if _, err := os.Lstat(out); err == nil {
			return trace.Stats{}, badInputf("%s exists: give --force to overwrite it", out)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return trace.Stats{}, err
		}
	}
	b, err := store.ReadRegular(in, MaxTraceInput)
	if err != nil {
		return trace.Stats{}, BadInput(err)
	}
	o.File = in
	var buf bytes.Buffer
	st, err := trace.Convert(bytes.NewReader(b), &buf, o)
	if err != nil {
		return trace.Stats{}, BadInput(err)
	}
	err = store.WriteAtomic(filepath.Dir(out), filepath.Base(out), func(w io.Writer) error { _, err := w.Write(buf.Bytes()); return err })
	if err != nil {
		return trace.Stats{}, fmt.Errorf("trace convert: %w", err)
	}
	return st, nil
}

// AttachTrace reads a scenario's trace.file and gives its rows to the
// scenario (the scenario package reads no file). The path is relative to
// the folder of scenarioFile, the -f file; for an embedded scenario
// (scenarioFile "") it names one of the embedded traces
// (experiments/traces), so that an embedded experiment runs anywhere.
func AttachTrace(sc *scenario.Scenario, scenarioFile string) error {
	if sc.Trace == nil {
		return nil
	}
	name := sc.Trace.File
	var data []byte
	var err error
	if scenarioFile != "" {
		if !filepath.IsAbs(name) {
			name = filepath.Join(filepath.Dir(scenarioFile), name)
		}
		data, err = store.ReadRegular(name, MaxTraceInput)
	} else {
		data, err = experiments.Trace(name)
	}
	if err != nil {
		return badInputf("trace.file: %w", err)
	}
	t, err := trace.Read(bytes.NewReader(data), name)
	if err != nil {
		return badInputf("trace.file: %w", err)
	}
	return BadInput(sc.AttachTrace(t.Arrivals, t.Sizes))
}
