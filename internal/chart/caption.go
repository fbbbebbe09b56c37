package chart

import (
	"image/color"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// captionStyle is the look of a caption drawn inside a figure: 9 pt at
// text scale s, grey.
func captionStyle(s float64) text.Style {
	sty := plot.NewLegend().TextStyle
	sty.Font = font.From(sty.Font, pt(9, s))
	sty.Color = color.Gray{Y: 70}
	return sty
}

// captionMargin is the room left and right of a caption: the legend
// strip's own (legendArea).
const captionMargin = 12

// wrapCaption breaks a caption into lines no wider than width, as drawn
// in sty, at spaces; a line break in s is kept. A word wider than width
// stands on a line of its own (it cannot be broken without changing it).
func wrapCaption(s string, sty text.Style, width vg.Length) []string {
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		line := ""
		for _, w := range strings.Fields(para) {
			if line == "" {
				line = w
				continue
			}
			if sty.Width(line+" "+w) > width {
				lines = append(lines, line)
				line = w
				continue
			}
			line += " " + w
		}
		lines = append(lines, line)
	}
	return lines
}
