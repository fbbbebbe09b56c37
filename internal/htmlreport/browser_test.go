package htmlreport

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// findBrowser returns Debian's chromium, or skips the test with how to get
// it; under OFFLOAD_BROWSER=1 (CI, which installs it) a missing browser is a
// failure, so that CI can never pass by skipping.
func findBrowser(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "no chromium binary on PATH: the report is not checked in a browser (apt-get install chromium; .ci/run installs it)"
	if os.Getenv("OFFLOAD_BROWSER") == "1" {
		t.Fatal(msg + ", and OFFLOAD_BROWSER=1 requires the check")
	}
	t.Skip(msg)
	return ""
}

// artefacts is where the test keeps what a person should look at: the
// folder of OFFLOAD_ARTIFACTS (CI keeps it), else the test's own.
func artefacts(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("OFFLOAD_ARTIFACTS")
	if dir == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestReportInBrowser opens the report of the committed paper-scale
// reproduction (docs/paper: claims, five experiments, an emulation) in
// headless chromium and checks what a reader gets: the headings, every
// table row and every figure rendered (text drawn as outlines, so no
// <text> at all), no request leaving the file, no console error (a blocked
// resource or a Content-Security-Policy violation would be one), no
// sideways scrolling of the page at a phone's width, and a PDF from the
// print stylesheet; at a laptop's 1280 px, no table scrolls sideways.
// Screenshots at laptop and phone widths, the PDF and the page are kept as
// artefacts. A browser's start and the page's checks take seconds to tens
// of seconds: it runs with OFFLOAD_BROWSER=1 or OFFLOAD_LONG=1.
func TestReportInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser start takes seconds: not under -short")
	}
	if os.Getenv("OFFLOAD_BROWSER") != "1" && os.Getenv("OFFLOAD_LONG") == "" {
		t.Skip("long: a browser takes seconds to tens of seconds; set OFFLOAD_BROWSER=1 or OFFLOAD_LONG=1")
	}
	browser := findBrowser(t)
	var buf bytes.Buffer
	if err := Write(&buf, os.DirFS("../../docs/paper"), Options{Generator: "offload (test)"}); err != nil {
		t.Fatal(err)
	}
	out := artefacts(t)
	file := filepath.Join(out, "report.html")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(file)
	url := "file://" + abs
	wantSVG := strings.Count(buf.String(), "<svg")
	wantRows := strings.Count(buf.String(), "<tr") - strings.Count(buf.String(), "<thead><tr")
	if wantSVG < 10 || wantRows < 100 {
		t.Fatalf("the page has %d figures and %d table rows; docs/paper should give more", wantSVG, wantRows)
	}

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(browser), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		// Without these chromium calls home at start, and this machine's
		// closed network refuses it (errors, delays).
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-default-browser-check", true), chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900),
	}
	// No deadline of its own: a fixed one failed on a busy machine (the
	// browser's start and the page's rendering count against it). The test
	// binary's -timeout bounds a hang; the browser is stopped a little
	// before it, so that the failure names the step that hung.
	ctx := context.Background()
	if d, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d.Add(-15*time.Second))
		defer cancel()
	}
	actx, cancelA := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelA()
	bctx, cancelB := chromedp.NewContext(actx)
	defer cancelB()

	var mu sync.Mutex
	var requests, problems []string
	if err := chromedp.Listen(bctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			requests = append(requests, e.Request.URL)
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeAssert {
				problems = append(problems, fmt.Sprintf("console.%s", e.Type))
			}
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+e.ExceptionDetails.Text)
		case *log.EventEntryAdded:
			if e.Entry.Level == log.EntryLevelError || e.Entry.Level == log.EntryLevelWarning {
				problems = append(problems, fmt.Sprintf("%s %s: %s %s", e.Entry.Level, e.Entry.Source, e.Entry.Text, e.Entry.URL))
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(bctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	type facts struct {
		Title       string   `json:"title"`
		H1          string   `json:"h1"`
		H2          []string `json:"h2"`
		SVG         int      `json:"svg"`
		Drawn       int      `json:"drawn"`
		Texts       int      `json:"texts"`
		Rows        int      `json:"rows"`
		Verdicts    int      `json:"verdicts"`
		Scripts     int      `json:"scripts"`
		ScrollWidth int      `json:"scrollWidth"`
		InnerWidth  int      `json:"innerWidth"`
		Overflowing []string `json:"overflowing"`
	}
	const probe = `({
		title: document.title,
		h1: document.querySelector('h1').textContent,
		h2: [...document.querySelectorAll('h2')].map(h => h.textContent),
		svg: document.querySelectorAll('svg').length,
		drawn: [...document.querySelectorAll('figure svg')].filter(s => s.getBoundingClientRect().width > 200 && s.querySelectorAll('path').length > 50).length,
		texts: document.querySelectorAll('svg text').length,
		rows: document.querySelectorAll('tr').length - document.querySelectorAll('thead tr').length,
		verdicts: document.querySelectorAll('td.pass, td.fail, td.inconclusive').length,
		scripts: document.scripts.length,
		scrollWidth: document.documentElement.scrollWidth,
		innerWidth: window.innerWidth,
		overflowing: [...document.querySelectorAll('.scroll')].filter(e => e.scrollWidth > e.clientWidth + 1)
			.map(e => ((e.previousElementSibling || {}).textContent || '').slice(0, 60) + ': ' + e.scrollWidth + ' px in ' + e.clientWidth),
	})`
	desk, err := chromedp.Run(bctx, chromedp.Evaluate[facts](probe))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("laptop: %d figures (%d drawn), %d table rows, %d verdict cells, sections %q", desk.SVG, desk.Drawn, desk.Rows, desk.Verdicts, desk.H2)
	if desk.H1 != "offload results: reproduce" || !strings.Contains(desk.Title, "reproduce") {
		t.Errorf("title %q, h1 %q", desk.Title, desk.H1)
	}
	for _, h := range []string{"Claims", "sweep-load", "edge-capacity", "mape", "burst", "decision", "emulate"} {
		if !contains(desk.H2, h) {
			t.Errorf("no section %q among %q", h, desk.H2)
		}
	}
	if desk.SVG != wantSVG || desk.Drawn != wantSVG {
		t.Errorf("%d <svg> in the DOM, %d of them drawn at width > 200 px with their paths; the page has %d", desk.SVG, desk.Drawn, wantSVG)
	}
	if desk.Texts != 0 {
		t.Errorf("%d <text> elements in the figures: their text depends on the viewer's fonts", desk.Texts)
	}
	if desk.Rows != wantRows {
		t.Errorf("%d table rows in the DOM, %d in the page", desk.Rows, wantRows)
	}
	if desk.Verdicts < 6 || desk.Scripts != 0 {
		t.Errorf("%d coloured verdict cells (want the claims' 6 at least), %d scripts (want none)", desk.Verdicts, desk.Scripts)
	}
	// A laptop shows every table whole: none scrolls inside its box.
	if desk.ScrollWidth > desk.InnerWidth || len(desk.Overflowing) > 0 {
		t.Errorf("at a laptop's %d px the page is %d px wide and these tables scroll sideways: %q", desk.InnerWidth, desk.ScrollWidth, desk.Overflowing)
	}
	shot, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	keep(t, out, "report-laptop.png", shot)

	if err := chromedp.Do(bctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	phone, err := chromedp.Run(bctx, chromedp.Evaluate[facts](probe))
	if err != nil {
		t.Fatal(err)
	}
	if phone.ScrollWidth > phone.InnerWidth {
		t.Errorf("at a phone's width (%d px) the page is %d px wide: it scrolls sideways (only tables may, inside their box)", phone.InnerWidth, phone.ScrollWidth)
	}
	shot, err = chromedp.Run(bctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	keep(t, out, "report-phone.png", shot)

	pdf, err := chromedp.Run(bctx, func(ctx context.Context, tg *chromedp.Target) ([]byte, error) {
		res, err := cdp.Call(ctx, tg, cdppage.PrintToPDF, cdppage.PrintToPDFParams{})
		return res.Data, err
	})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(pdf, []byte("%PDF")) || len(pdf) < 50_000 {
		t.Errorf("printing gave %d bytes, not a PDF of the report", len(pdf))
	}
	keep(t, out, "report-print.pdf", pdf)

	mu.Lock()
	defer mu.Unlock()
	for _, u := range requests {
		if u != url && !strings.HasPrefix(u, "data:") {
			t.Errorf("the page requested %s: it must load nothing but itself", u)
		}
	}
	if len(requests) == 0 {
		t.Error("no request seen, not even the page's own: the network listener is not working")
	}
	for _, p := range problems {
		t.Errorf("browser console: %s", p)
	}
}

func keep(t *testing.T, dir, name string, b []byte) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("kept %s (%d bytes)", p, len(b))
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
