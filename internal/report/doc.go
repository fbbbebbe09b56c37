// Package report writes what an experiment produced: runs.csv and
// summary.csv (docs/design.md §5) through encoding/csv, and plots through
// gonum.org/v1/plot. It reads runs.csv back for --resume.
//
// Nothing here prints or chooses a path: writers take an io.Writer, and
// files go only into the folder they are handed, each written atomically
// (WriteFileAtomic) so that an interrupted run never leaves a half file.
//
// Cell format: floats as strconv.FormatFloat(x, 'g', -1, 64), which reads
// back to the same float64; integers plain; a missing value (NaN) as an
// empty cell, never "NaN". ±Inf is written empty too: no metric of a
// finished run can be infinite, so it would be a bug upstream, and an empty
// cell keeps every consumer (spreadsheets, pandas, R) parsing the column as
// numbers. Summaries skip non-finite values in the same way, so a summary
// computed in memory equals one computed from the file read back.
package report
