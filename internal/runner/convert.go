package runner

import (
	"bytes"
	"cmp"
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

// AttachTrace reads the files a scenario names — trace.file, and the file
// of an empirical workload.size — and gives their data to the scenario (the
// scenario package reads no file). A path is relative to the folder of
// scenarioFile, the -f file; for an embedded scenario (scenarioFile "") it
// names one of the embedded traces (experiments/traces), so that an
// embedded experiment runs anywhere.
func AttachTrace(sc *scenario.Scenario, scenarioFile string) error {
	return attachData(sc, func(name string) (string, []byte, error) {
		if scenarioFile == "" {
			b, err := experiments.Trace(name)
			return name, b, err
		}
		if !filepath.IsAbs(name) {
			name = filepath.Join(filepath.Dir(scenarioFile), name)
		}
		b, err := store.ReadRegular(name, MaxTraceInput)
		return name, b, err
	}, BadInputf)
}

// attachData attaches what read gives for the scenario's trace.file and
// the files of its empirical laws (workload.size, data, reply) (read returns the path it read, for
// messages). fail wraps a problem with a file.
func attachData(sc *scenario.Scenario, read func(name string) (string, []byte, error), fail func(format string, a ...any) error) error {
	if sc.Trace != nil {
		name, data, err := read(sc.Trace.File)
		if err != nil {
			return fail("trace.file: %w", err)
		}
		t, err := trace.Read(bytes.NewReader(data), name)
		if err != nil {
			return fail("trace.file: %w", err)
		}
		if err := sc.AttachTrace(t.Arrivals, t.Sizes); err != nil {
			return BadInput(err)
		}
	}
	w := &sc.Workload
	for _, e := range []struct {
		field, file, column string
		attach              func([]float64) error
	}{
		{"size", w.Size.File, w.Size.Column, sc.AttachSizes},
		{"data", w.Data.File, w.Data.Column, func(xs []float64) error { return sc.AttachData("data", xs) }},
		{"reply", w.Reply.File, w.Reply.Column, func(xs []float64) error { return sc.AttachData("reply", xs) }},
	} {
		if e.file == "" { // validation allows a file on an empirical law only
			continue
		}
		name, data, err := read(e.file)
		if err != nil {
			return fail("workload.%s.file: %w", e.field, err)
		}
		xs, err := trace.ReadColumn(bytes.NewReader(data), name, cmp.Or(e.column, "size"))
		if err != nil {
			return fail("workload.%s.file: %w", e.field, err)
		}
		if err := e.attach(xs); err != nil {
			return BadInput(err)
		}
	}
	return nil
}
