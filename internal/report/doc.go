// Package report draws figures through gonum.org/v1/plot: a general
// surface (Chart, one plot of series with interval bars or bands; Panels,
// several under one title and legend) on which the experiments draw their
// own figures, and the figures every sweep has (SweepFigures: the latency
// metrics, their *_stable versions, the shares, the per-class panels) with
// the paired differences. Every policy
// entry keeps one colour and marker across figures (Legend), the legend
// sits under the plot where it cannot cover a line, and the axes come from
// internal/axis.
//
// Nothing here prints or chooses a path: a figure goes only into the
// Folder it is handed, each file written atomically (WriteFileAtomic) so
// that an interrupted run never leaves a half file.
package report
