package htmlreport

import (
	"html"
	"regexp"
	"strconv"
	"strings"
)

// markdown converts the subset of Markdown that claims.md (and notes like
// it) uses into HTML: ATX headings, paragraphs, pipe tables with their
// alignment row, fenced code blocks, "-" lists, and inline code, **bold**
// and [links](url). It is not CommonMark, and need not be: the input is
// offload's own output, and everything unrecognised is escaped text, never
// markup. Headings are shifted down by shift levels so that the document's
// "#" sits under the page's own heading, and their ids start with idPrefix
// so that they do not collide with the page's other ids.
func markdown(src string, shift int, idPrefix string) string {
	var b strings.Builder
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	var para []string
	flush := func() {
		if len(para) > 0 {
			b.WriteString("<p>" + inline(strings.Join(para, " ")) + "</p>\n")
			para = nil
		}
	}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
			flush()
		case strings.HasPrefix(trimmed, "```"):
			flush()
			var code []string
			for i++; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "```"); i++ {
				code = append(code, lines[i])
			}
			b.WriteString("<pre><code>" + html.EscapeString(strings.Join(code, "\n")) + "</code></pre>\n")
		case heading.MatchString(trimmed):
			flush()
			m := heading.FindStringSubmatch(trimmed)
			level := min(len(m[1])+shift, 6)
			tag := "h" + string(rune('0'+level))
			b.WriteString("<" + tag + ` id="` + idPrefix + slug(m[2]) + `">` + inline(m[2]) + "</" + tag + ">\n")
		case strings.HasPrefix(trimmed, "|"):
			flush()
			var rows []string
			for ; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "|"); i++ {
				rows = append(rows, strings.TrimSpace(lines[i]))
			}
			i--
			b.WriteString(table(rows))
		case strings.HasPrefix(trimmed, "- "):
			flush()
			b.WriteString("<ul>\n")
			for ; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "- "); i++ {
				b.WriteString("<li>" + inline(strings.TrimPrefix(strings.TrimSpace(lines[i]), "- ")) + "</li>\n")
			}
			i--
			b.WriteString("</ul>\n")
		default:
			para = append(para, trimmed)
		}
	}
	flush()
	return b.String()
}

var (
	heading   = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*$`)
	alignCell = regexp.MustCompile(`^:?-{3,}:?$`)
	codeSpan  = regexp.MustCompile("`([^`]+)`")
	bold      = regexp.MustCompile(`\*\*([^*]+)\*\*`)
	link      = regexp.MustCompile(`\[([^\]]+)\]\(([^)\s]+)\)`)
	verdict   = regexp.MustCompile(`^(?:<strong>)?(PASS|FAIL|INCONCLUSIVE|NOT RUN|SKIPPED)\b`)
)

// table renders pipe-table rows: a header, the alignment row, the body.
// A row of another width than the header's is padded or cut, as GitHub
// does. Cells that open with a verdict get its class, so that the page
// colours PASS and FAIL.
func table(rows []string) string {
	split := func(r string) []string {
		r = strings.TrimSuffix(strings.TrimPrefix(r, "|"), "|")
		cells := strings.Split(r, "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		return cells
	}
	head := split(rows[0])
	var align []string
	body := rows[1:]
	if len(body) > 0 {
		if cells := split(body[0]); len(cells) > 0 && alignCell.MatchString(cells[0]) {
			for _, c := range cells {
				switch {
				case strings.HasSuffix(c, ":") && strings.HasPrefix(c, ":"):
					align = append(align, "center")
				case strings.HasSuffix(c, ":"):
					align = append(align, "right")
				default:
					align = append(align, "")
				}
			}
			body = body[1:]
		}
	}
	attr := func(j int, text string) string {
		var a []string
		if j < len(align) && align[j] == "right" {
			a = append(a, "num")
		}
		if m := verdict.FindStringSubmatch(text); m != nil {
			a = append(a, "verdict", strings.ToLower(strings.ReplaceAll(m[1], " ", "-")))
		}
		if len(a) == 0 {
			return ""
		}
		return ` class="` + strings.Join(a, " ") + `"`
	}
	var b strings.Builder
	b.WriteString("<div class=\"scroll\"><table>\n<thead><tr>")
	for j, h := range head {
		b.WriteString("<th" + attr(j, "") + ">" + inline(h) + "</th>")
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for _, r := range body {
		cells := split(r)
		b.WriteString("<tr>")
		for j := range head {
			c := ""
			if j < len(cells) {
				c = inline(cells[j])
			}
			b.WriteString("<td" + attr(j, c) + ">" + c + "</td>")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody></table></div>\n")
	return b.String()
}

// inline escapes text and then applies code spans, bold and links. Code
// spans are cut out first so that their content stays literal.
func inline(s string) string {
	var codes []string
	s = codeSpan.ReplaceAllStringFunc(s, func(m string) string {
		codes = append(codes, "<code>"+html.EscapeString(m[1:len(m)-1])+"</code>")
		return "\x00" + strconv.Itoa(len(codes)-1) + "\x00"
	})
	s = html.EscapeString(s)
	s = bold.ReplaceAllString(s, "<strong>$1</strong>")
	s = link.ReplaceAllStringFunc(s, func(m string) string {
		p := link.FindStringSubmatch(m)
		if !safeURL(p[2]) {
			return p[1]
		}
		return `<a href="` + p[2] + `">` + p[1] + "</a>"
	})
	for i, c := range codes {
		s = strings.Replace(s, "\x00"+strconv.Itoa(i)+"\x00", c, 1)
	}
	return s
}

// safeURL admits relative links, fragments and http(s): a javascript: or
// data: link in a note would be a script in a page that has none.
func safeURL(u string) bool {
	if i := strings.IndexAny(u, ":/?#"); i >= 0 && u[i] == ':' {
		scheme := strings.ToLower(u[:i])
		return scheme == "http" || scheme == "https"
	}
	return true
}

// slug makes a heading's text into an id: lower case, letters and digits,
// runs of anything else as one "-".
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}
