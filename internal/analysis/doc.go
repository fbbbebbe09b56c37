// Package analysis reads and writes what a results folder holds beyond its
// runs: the experiments' summaries, tables and figures made from finished
// runs (the sweeps', mape's, burst's, the energy front, the emulation's
// comparison), and the commands that read a folder again: plot, compare
// and the HTML report. The sweeps' standard figures are internal/report's,
// the experiments' own are drawn here on internal/chart's surface, and the
// CSV formats are internal/results'.
package analysis
