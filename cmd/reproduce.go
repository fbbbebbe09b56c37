package cmd

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/offload-sim/offload/internal/emulate"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/reproduce"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/scenario"
)

// reproduceOptions are the flags of `offload reproduce`.
type reproduceOptions struct {
	io      IO
	of      outputFlags
	scale   string
	seed    uint64
	strict  bool
	emulate bool
	// baselines runs the reference baselines in sweep-load too.
	baselines bool
	cmd       *cobra.Command
}

func newReproduceCmd(io IO) *cobra.Command {
	o := &reproduceOptions{io: io}
	c := &cobra.Command{
		Use:   reproduce.Name,
		Short: "Run all " + count(len(reproduce.Reproduced())) + " experiments and check the paper's claims",
		Long: "Run " + listed(reproduce.Reproduced()) + ` (and a timed run
of hybrid's decisions, and an exploration run of hybrid with ε = 0 beside hybrid
and edge-first) into DIR/<experiment>/, then write DIR/claims.md: each claim of the
paper with its verdict (PASS, FAIL, INCONCLUSIVE, NOT RUN) by the paired rule
and the numbers it rests on. --scale paper uses the embedded defaults (10
seeds × 200,000 tasks); --scale ci uses 5 seeds and 50,000 tasks.
--baselines adds the reference baselines to ` + reproduce.BaselinesIn() + ` (the claims still read
only the paper's eight). The exit status is 0 whatever the verdicts, unless
--strict (1 on a FAIL).`,
		Example: "  offload reproduce --scale ci -o /tmp/repro\n  offload reproduce --emulate",
		Args:    noArgs,
		RunE:    func(c *cobra.Command, args []string) error { return runReproduce(c.Context(), o) },
	}
	o.cmd = c
	o.of.register(c, "results/reproduce")
	fl := c.Flags()
	fl.StringVar(&o.scale, "scale", "paper", "run length: paper (the embedded defaults) or ci (short)")
	fl.Uint64Var(&o.seed, "seed", 0, "master seed of every experiment (default: the scenarios')")
	fl.BoolVar(&o.strict, "strict", false, "exit 1 if a claim FAILs")
	fl.BoolVar(&o.emulate, emulateFlag, false, "also run the HTTP emulation for claim 6")
	fl.BoolVar(&o.baselines, "baselines", false, "also run the reference baselines ("+strings.Join(policies.Baselines(), ", ")+") in "+reproduce.BaselinesIn()+"; the claims use only the paper's eight")
	return c
}

func runReproduce(ctx context.Context, o *reproduceOptions) error {
	if err := o.of.check(o.io.getenv); err != nil {
		return err
	}
	ro := reproduce.Options{Scale: o.scale, Strict: o.strict, Baselines: o.baselines,
		Load: func(embedded string, sets []string) (*scenario.Scenario, error) {
			var sf scenarioFlags // built in code: the sets say it all
			return sf.load(embedded, sets)
		}}
	if o.cmd.Flags().Changed("seed") {
		ro.Sets = []string{"seed=" + strconv.FormatUint(o.seed, 10)}
	}
	if o.emulate {
		ro.EmulateFolder = emulate.Name
		ro.EmulateFigures = emulate.ReportFigures()
		ro.Emulate = func(ctx context.Context, dir string, sets []string) (emu, sim []results.Run, err error) {
			return reproduceEmulation(ctx, o, dir, sets)
		}
	}
	_, err := reproduce.Reproduce(ctx, ro, o.of.options(o.io, cmdArgs(ctx)))
	return err
}

// count spells n out, as help text does for small numbers.
func count(n int) string {
	words := []string{"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}
	if n >= 0 && n < len(words) {
		return words[n]
	}
	return strconv.Itoa(n)
}

// listed joins names as prose: "a, b and c".
func listed(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// emulationSeeds is the replicates of the emulation behind claim 6: each
// (policy, replicate) takes 12 s of wall clock, so three replicates of the
// eight policies take about five minutes.
const emulationSeeds = 3

// reproduceEmulation runs `offload emulate` on its embedded default into dir
// and returns the emulated and simulated runs. A run that failed more than
// defaultMaxFailures of its requests makes runEmulate return an error, so
// that claim 6 is never judged on it.
func reproduceEmulation(ctx context.Context, o *reproduceOptions, dir string, sets []string) (emu, sim []results.Run, err error) {
	eo := &emulateOptions{io: IO{Out: discard{}, Err: o.io.Err, ErrTerminal: o.io.ErrTerminal},
		dir: dir, force: o.of.force, quiet: o.of.quiet, format: o.of.format,
		duration: 10 * time.Second, warmup: 2 * time.Second, timeout: time.Minute, timeScale: 1, spin: time.Millisecond,
		maxFailures: defaultMaxFailures, args: cmdArgs(ctx)}
	eo.sf.sets = append(append([]string(nil), sets...), "seeds="+strconv.Itoa(emulationSeeds))
	eo.collect = func(e, s []results.Run) { emu, sim = e, s }
	if err := runEmulate(ctx, eo); err != nil {
		return nil, nil, err
	}
	return emu, sim, nil
}

// discard is io.Discard as a type, for an IO whose Out is thrown away.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// emulateFlag is --emulate, which also runs the HTTP emulation (claim 6).
const emulateFlag = "emulate"
