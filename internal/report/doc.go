// Package report draws the figures every sweep has, on internal/chart's
// surface: SweepFigures (the latency metrics, their *_stable versions
// with the points near a tier's capacity set apart, the shares, the
// per-class panels) and the paired differences, with their captions, the
// axis titles of a swept parameter (from the scenario schema) and what a
// re-plot reads of a folder's scenario.yaml. An experiment's own figures
// are its own (internal/analysis), drawn on the same surface.
package report
