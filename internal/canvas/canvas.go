// Package canvas makes the figures' canvases by file format: a PNG that
// says its resolution, an SVG whose text is outlined (the same glyphs
// everywhere, no font needed) and a PDF. It knows nothing of what is
// drawn on them.
package canvas

import (
	"fmt"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Formats lists the formats New makes.
var Formats = []string{"png", "svg", "pdf"}

// New is a w × h canvas for format (one of Formats); a PNG has dpi dots
// per inch.
func New(format string, w, h vg.Length, dpi int) (vg.CanvasWriterTo, error) {
	switch format {
	case "png":
		return dpiPNG{vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi))}, dpi}, nil
	case "svg":
		return outlinedSVG{vgsvg.New(w, h)}, nil
	case "pdf":
		return vgpdf.New(w, h), nil
	}
	return nil, fmt.Errorf("unknown plot format %q (want one of %s)", format, strings.Join(Formats, ", "))
}
