package chart

import "gonum.org/v1/plot/vg"

// Figure is one figure as an experiment writes it into its folder and the
// HTML report draws it again: a file stem, a title (drawn in the image in
// the folder, beside it in the report) and a caption (never in the image
// unless asked: the report and the docs carry it), and how to draw it.
type Figure struct {
	File, Title, Caption string
	// Redundant: identical to another figure of its list (a *_stable
	// figure that left nothing out). The experiments still write it (their
	// file list does not depend on the data); the report skips it.
	Redundant bool
	// Note says what the figure leaves out because it cannot show
	// everything, for the caller to tell the user; "" when it shows all.
	Note string
	// Options are the figure's own presentation, before Draw sets the
	// title, caption and size its caller asks for.
	Options FigureOptions
	draw    func(dir Folder, file, format string, o FigureOptions) error
}

// NewFigure is a figure that draw writes into dir as file.<format> (file
// may carry the extension already) with the presentation o, which is the
// figure's Options with the title, caption and size its caller asks for
// (Draw, DrawSized).
func NewFigure(file, title, caption string, o FigureOptions, draw func(dir Folder, file, format string, o FigureOptions) error) Figure {
	return Figure{File: file, Title: title, Caption: caption, Options: o, draw: draw}
}

// Draw writes the figure as dir/file.<format>; withTitle draws the title
// in the image, caption the caption under the legend.
func (f Figure) Draw(dir Folder, file, format string, withTitle, caption bool) error {
	return f.DrawSized(dir, file, format, withTitle, caption, f.Options.Width, f.Options.Height)
}

// DrawSized is Draw at the image size w × h (0: the default).
func (f Figure) DrawSized(dir Folder, file, format string, withTitle, caption bool, w, h vg.Length) error {
	o := f.Options
	if withTitle {
		o.Title = f.Title
	}
	o.Caption, o.Width, o.Height = caption, w, h
	return f.draw(dir, file, format, o)
}
