// Package runner runs an experiment into an output folder: it guards and
// prepares the folder, honours --resume, executes the plan, keeps runs.csv
// and the experiment's own files consistent with what finished (even when
// interrupted), and writes the summaries, plots and tables. One template
// (Spec) serves run, sweep-load, edge-capacity, mape and burst, so that a new
// experiment is a spec, not a copy; Reproduce runs them all and judges the
// paper's claims (docs/design.md §4, §5, §6).
//
// It talks to no terminal: tables and the paths written go to the io.Writer
// it is given, and progress to a callback. cmd wires flags to it.
package runner
