// Package chart is the drawing surface of every figure, through
// gonum.org/v1/plot: Chart, one plot of series with interval bars or
// bands, shaded spans, a zero line, points set apart; Panels, several
// charts under one title and one legend; and, for a figure of a layout of
// its own, Render (a white image with the legend strip and caption under
// the plots), DrawPlot and a Legend's Styler. A Figure is one listed with
// its title and caption, drawn at any size: what an experiment writes and
// the HTML report draws again. Every policy entry keeps one
// colour and marker across figures (Legend), the legend sits under the
// plot where it cannot cover a line, the axes come from internal/axis and
// the file from internal/canvas.
//
// Nothing here knows a sweep, an experiment or a results file; nothing
// prints or chooses a path: a figure goes only into the Folder it is
// handed, each file written atomically (WriteFileAtomic) so that an
// interrupted run never leaves a half file.
package chart
