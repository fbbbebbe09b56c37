package cmd

import (
	"errors"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/offload-sim/offload/experiments"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/runner"
	"github.com/offload-sim/offload/internal/scenario"
	"github.com/offload-sim/offload/internal/store"
	"github.com/spf13/cobra"
)

// scenarioFlags select and override a scenario: every experiment has them.
type scenarioFlags struct {
	file  string   // -f: replaces the embedded scenario
	sets  []string // --set path=value, in order
	seed  uint64   // --seed, if changed
	seeds int      // --seeds, if changed
	tasks int      // --tasks, if changed
	cmd   *cobra.Command
}

func (f *scenarioFlags) register(c *cobra.Command) {
	f.cmd = c
	fl := c.Flags()
	fl.StringVarP(&f.file, "file", "f", "", "scenario YAML `file` (default: the embedded one)")
	fl.StringArrayVar(&f.sets, "set", nil, "override a field, e.g. --set tiers.edge.servers=8 (`path=value`, repeatable)")
	fl.Uint64Var(&f.seed, "seed", 0, "master seed (default: the scenario's)")
	fl.IntVar(&f.seeds, "seeds", 0, "replicates per (cell, policy) (default: the scenario's)")
	fl.IntVar(&f.tasks, "tasks", 0, "measured tasks per run (default: the scenario's)")
}

// load reads the scenario (the file or the embedded default) and applies
// --set and the flags, all as --set paths, so that one validator speaks for
// every source. The returned name is what error messages call the source.
func (f *scenarioFlags) load(embedded string, extra []string) (*scenario.Scenario, error) {
	name := "embedded " + embedded + ".yaml"
	var data []byte
	var err error
	if f.file != "" {
		name = f.file
		// A regular file under the size cap only: /dev/zero or a FIFO would
		// be read forever, a huge file would be decoded in memory.
		data, err = store.ReadRegular(f.file, scenario.MaxFileSize)
		if err != nil {
			return nil, badInputf("scenario: %w (a scenario is a regular file of at most %s)", err, store.FormatSize(scenario.MaxFileSize))
		}
	} else if data, err = experiments.Get(embedded); err != nil {
		return nil, err
	}
	sets := append([]string(nil), extra...)
	if f.cmd == nil { // built in code (reproduce): the sets say it all
		sc, err := parseScenario(name, data, sets)
		if err != nil {
			return nil, err
		}
		return sc, f.attachTrace(sc)
	}
	fl := f.cmd.Flags()
	if fl.Changed("seed") {
		sets = append(sets, "seed="+strconv.FormatUint(f.seed, 10))
	}
	if fl.Changed("seeds") {
		if f.seeds < 1 {
			return nil, badInputf("--seeds %d: must be ≥ 1", f.seeds)
		}
		sets = append(sets, "seeds="+strconv.Itoa(f.seeds))
	}
	if fl.Changed("tasks") {
		if f.tasks < 1 {
			return nil, badInputf("--tasks %d: must be ≥ 1", f.tasks)
		}
		// --tasks puts a duration-mode scenario in tasks mode.
		sets = append(sets, "tasks="+strconv.Itoa(f.tasks), "duration=0", "warmup_time=0")
	}
	sc, err := parseScenario(name, data, sets)
	if err != nil {
		return nil, blameFlags(err, fl.Changed)
	}
	if err := f.attachTrace(sc); err != nil {
		return nil, err
	}
	return sc, checkSetsNotSwept(sc, f.sets)
}

// blameFlags renames a problem with a field that a flag set (--seed,
// --seeds, --tasks: applied as the last --set of their field, so theirs is
// the value in question) from "--set tasks" to "--tasks": the user typed
// the flag, not the --set.
func blameFlags(err error, changed func(name string) bool) error {
	var es scenario.Errors
	if !errors.As(err, &es) {
		return err
	}
	for _, e := range es {
		for _, name := range []string{"seed", "seeds", "tasks"} {
			if changed(name) && e.Field == "--set "+name {
				e.Field = "--" + name
			}
		}
	}
	return err
}

// checkSetsNotSwept refuses a --set of the swept field: every cell would
// overwrite it, so it would be silently ignored.
func checkSetsNotSwept(sc *scenario.Scenario, sets []string) error {
	if sc.Sweep == nil {
		return nil
	}
	for _, s := range sets {
		if p, _, _ := strings.Cut(s, "="); p == sc.Sweep.Param {
			return badInputf("--set %s: %s is swept over %v, so every cell overwrites it; set sweep.values instead (or sweep=null)", s, p, sc.Sweep.Values)
		}
	}
	return nil
}

func parseScenario(name string, data []byte, sets []string) (*scenario.Scenario, error) {
	sc, err := scenario.Parse(name, data, sets, experiment.Catalog())
	if err != nil {
		return nil, badInput(err)
	}
	return sc, nil
}

// attachTrace gives a scenario its trace's rows (runner.AttachTrace: the
// path relative to the -f file, or an embedded trace).
func (f *scenarioFlags) attachTrace(sc *scenario.Scenario) error {
	return runner.AttachTrace(sc, f.file)
}

// dir is the folder exec policies' programs run in: the -f file's, so that
// their relative paths resolve against it as trace.file's do; "" (the
// current folder) for an embedded scenario.
func (f *scenarioFlags) dir() string {
	if f.file == "" {
		return ""
	}
	return filepath.Dir(f.file)
}
