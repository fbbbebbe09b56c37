package canvas

import (
	"errors"

	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// outlinedSVG is an SVG canvas that draws text as the glyphs' outlines
// (filled paths) instead of <text> elements. vgsvg writes <text> with
// font-family "Liberation Serif" and, unless asked to embed the whole TTF
// (about 400 kB per face and figure), leaves the font to the viewer: on a
// machine without Liberation fonts the labels come out in another font with
// other metrics, and text gonum centred or right-aligned lands off its
// place. Outlines render the same everywhere, offline, with no font at all,
// and are what the PNG shows; the price is text that cannot be selected,
// which is why the HTML report puts each figure's title and caption beside
// it as HTML text.
type outlinedSVG struct{ *vgsvg.Canvas }

// FillString implements vg.Canvas: str at pt (the baseline's left end),
// glyph by glyph with the font's kerning, as font.Face.Width measures it.
func (c outlinedSVG) FillString(f font.Face, pt vg.Point, str string) {
	if f.Face == nil {
		c.Canvas.FillString(f, pt, str)
		return
	}
	var (
		buf sfnt.Buffer
		// At ppem = units per em, sfnt's 26.6 values are font units, which
		// scale converts to points (the same convention as font.Face.Width).
		ppem    = fixed.Int26_6(f.Face.UnitsPerEm())
		scale   = f.Font.Size / vg.Length(ppem)
		path    vg.Path
		x       = pt.X
		prev    sfnt.GlyphIndex
		hasPrev bool
	)
	at := func(p fixed.Point26_6) vg.Point {
		// sfnt's Y axis points down, vg's up.
		return vg.Point{X: x + vg.Length(p.X)*scale, Y: pt.Y - vg.Length(p.Y)*scale}
	}
	for _, r := range str {
		idx, err := f.Face.GlyphIndex(&buf, r)
		if err != nil {
			continue
		}
		if hasPrev {
			if k, err := f.Face.Kern(&buf, prev, idx, ppem, 0); err == nil {
				x += vg.Length(k) * scale
			} else if !errors.Is(err, sfnt.ErrNotFound) {
				continue
			}
		}
		segs, err := f.Face.LoadGlyph(&buf, idx, ppem, nil)
		if err == nil {
			open := false
			for _, s := range segs {
				switch s.Op {
				case sfnt.SegmentOpMoveTo:
					if open {
						path.Close()
					}
					path.Move(at(s.Args[0]))
					open = true
				case sfnt.SegmentOpLineTo:
					path.Line(at(s.Args[0]))
				case sfnt.SegmentOpQuadTo:
					path.QuadTo(at(s.Args[0]), at(s.Args[1]))
				case sfnt.SegmentOpCubeTo:
					path.CubeTo(at(s.Args[0]), at(s.Args[1]), at(s.Args[2]))
				}
			}
			if open {
				path.Close()
			}
		}
		if adv, err := f.Face.GlyphAdvance(&buf, idx, ppem, 0); err == nil {
			x += vg.Length(adv) * scale
		}
		prev, hasPrev = idx, true
	}
	if len(path) > 0 {
		c.Canvas.Fill(path)
	}
}
