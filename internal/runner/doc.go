// Package runner holds the mechanics of running an experiment into an
// output folder: it guards and prepares the folder, honours --resume,
// executes the plan, keeps runs.csv and the experiment's own files
// (sidecars) consistent with what finished (even when interrupted), runs
// and merges shards, and records the manifest. One template (Spec) serves
// every experiment: a new experiment is a spec (internal/reproduce holds
// them), not a copy.
//
// It talks to no terminal: tables and the paths written go to the io.Writer
// it is given, and progress to a callback. cmd wires flags to it.
package runner
