package docgen

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strings"
	"unicode"
)

// inlineLink is a markdown link or image, [text](target) or ![alt](target),
// with an optional title after the target.
var inlineLink = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// CheckLinks checks every relative link of the markdown file page (a path
// in fsys): its file must exist, and a #fragment into a markdown file must
// name one of its headings as GitHub anchors them. Links with a scheme
// (https:, mailto:) and links inside code are not checked.
func CheckLinks(fsys fs.FS, page string) []error {
	text, err := fs.ReadFile(fsys, page)
	if err != nil {
		return []error{err}
	}
	var errs []error
	for _, l := range links(text) {
		target, frag, _ := strings.Cut(l.target, "#")
		if strings.Contains(target, ":") {
			continue // a URL
		}
		file := page
		if target != "" {
			file = path.Join(path.Dir(page), target)
		}
		where := fmt.Sprintf("%s:%d: link %s", page, l.line, l.target)
		st, err := fs.Stat(fsys, strings.TrimSuffix(file, "/"))
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %s does not exist", where, file))
			continue
		}
		if frag == "" {
			continue
		}
		if st.IsDir() || !strings.HasSuffix(file, ".md") {
			errs = append(errs, fmt.Errorf("%s: a #fragment into %s, which is not a markdown page", where, file))
			continue
		}
		body, err := fs.ReadFile(fsys, file)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", where, err))
			continue
		}
		if !Anchors(body)[frag] {
			errs = append(errs, fmt.Errorf("%s: %s has no heading whose anchor is #%s", where, file, frag))
		}
	}
	return errs
}

type link struct {
	target string
	line   int
}

// links finds the inline links of a markdown text outside fenced code
// blocks and code spans.
func links(text []byte) []link {
	var out []link
	inFence := false
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if isFence(line) {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		for _, m := range inlineLink.FindAllStringSubmatch(stripCode(line), -1) {
			out = append(out, link{target: m[1], line: n})
		}
	}
	return out
}

func isFence(line string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
}

// stripCode blanks the code spans of a line, `like this`.
func stripCode(line string) string {
	parts := strings.Split(line, "`")
	for i := 1; i < len(parts); i += 2 {
		parts[i] = ""
	}
	return strings.Join(parts, "``")
}

// Anchors lists the anchors GitHub gives a markdown page's headings: the
// heading's text, lowercased, without its markup and every character but
// letters, marks, digits, connector punctuation, spaces and hyphens, its
// spaces as hyphens; a repeated anchor gains -1, -2, ….
func Anchors(text []byte) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	inFence := false
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if isFence(line) {
			inFence = !inFence
			continue
		}
		m := atxHeading.FindStringSubmatch(line)
		if inFence || m == nil {
			continue
		}
		a := Slug(strings.TrimSpace(m[1]))
		if k := seen[a]; k > 0 {
			seen[a]++
			a = fmt.Sprintf("%s-%d", a, k)
		} else {
			seen[a] = 1
		}
		anchors[a] = true
	}
	return anchors
}

// atxHeading is a heading line: one to six #, a space, the text.
var atxHeading = regexp.MustCompile(`^#{1,6}[ \t]+(.*?)[ \t#]*$`)

var mdLinkText = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)

// Slug is GitHub's anchor of a heading's text.
func Slug(heading string) string {
	heading = mdLinkText.ReplaceAllString(heading, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r) || unicode.Is(unicode.Pc, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
