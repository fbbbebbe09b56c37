package analysis

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/htmlreport"
	"github.com/offload-sim/offload/internal/runner"
)

// ReportFile is the report's name inside a results folder.
const ReportFile = "report.html"

// ReportOptions are what the report's caller knows of its experiments.
type ReportOptions struct {
	// Order is the order of a reproduction's experiment folders.
	Order []string
	// Figures re-draw the experiments' figures of their own, in this
	// order, each for the folders whose files it knows: an experiment
	// declares them beside its spec, and the caller, which knows the
	// experiments, hands them here.
	Figures []OwnFigures
}

// OwnFigures re-draw an experiment's figures of its own (those it draws
// from the files it kept, such as a burst's series) for the HTML report;
// none (nil, nil) for a folder without those files.
type OwnFigures = htmlreport.OwnFigures

// RenderReport makes the HTML report of the results folder dir. Whatever
// stops it in the folder's files (a file refused by ReadResult, a corrupt
// or incomplete CSV) is bad input.
func RenderReport(ctx context.Context, dir string, o ReportOptions) ([]byte, error) {
	if fi, err := os.Stat(dir); err == nil && fi.Mode().IsRegular() {
		// os.DirFS of a file fails on its first read with "not a
		// directory" about manifest.json, which hides the slip.
		return nil, runner.BadInputf("%s is a regular file, not a results folder", dir)
	}
	var b bytes.Buffer
	fsys := &resultsFS{ctx: ctx, dir: dir, refusal: new(refusal)}
	err := htmlreport.Write(&b, fsys, htmlreport.Options{Generator: "offload " + runner.Version(), Order: o.Order, Rank: rankFolder, Figures: allFigures(o.Figures)})
	if rerr := fsys.refusal.get(); rerr != nil {
		// htmlreport leaves out an optional file it cannot read; one that
		// is not a regular file, or too large, is refused all the same.
		return nil, rerr
	}
	switch {
	case err == nil:
		return b.Bytes(), nil
	case ctx.Err() != nil:
		return nil, ctx.Err()
	}
	return nil, runner.BadInputf("%s: %w", dir, err)
}

// allFigures are the figures of a folder that the experiments draw of
// their own, each experiment's in turn.
func allFigures(own []OwnFigures) OwnFigures {
	return func(c htmlreport.Contents) ([]chart.Figure, error) {
		var figs []chart.Figure
		for _, f := range own {
			fs, err := f(c)
			if err != nil {
				return nil, err
			}
			figs = append(figs, fs...)
		}
		return figs, nil
	}
}

// resultsFS is a results folder as htmlreport reads it: os.DirFS, except
// that a file is read as ReadResult reads one (a regular file of bounded
// size, the read ending with ctx) and opened without blocking, so that a
// FIFO cannot hang the open. The first refusal is kept in refusal, shared
// by its subfolders, since htmlreport treats an unreadable optional file as
// absent.
type resultsFS struct {
	ctx     context.Context
	dir     string
	refusal *refusal
}

// refusal is the first file a resultsFS refused.
type refusal struct {
	mu  sync.Mutex
	err error
}

func (r *refusal) keep(err error) error {
	if errors.Is(err, runner.ErrBadInput) {
		r.mu.Lock()
		if r.err == nil {
			r.err = err
		}
		r.mu.Unlock()
	}
	return err
}

func (r *refusal) get() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

var (
	_ fs.ReadFileFS = (*resultsFS)(nil)
	_ fs.ReadDirFS  = (*resultsFS)(nil)
	_ fs.StatFS     = (*resultsFS)(nil)
	_ fs.SubFS      = (*resultsFS)(nil)
)

// path is name in the folder, after fs.ValidPath's check.
func (r *resultsFS) path(op, name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	return filepath.Join(r.dir, filepath.FromSlash(name)), nil
}

func (r *resultsFS) Open(name string) (fs.File, error) {
	p, err := r.path("open", name)
	if err != nil {
		return nil, err
	}
	return os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

func (r *resultsFS) ReadFile(name string) ([]byte, error) {
	p, err := r.path("read", name)
	if err != nil {
		return nil, err
	}
	b, err := runner.ReadResult(r.ctx, p)
	return b, r.refusal.keep(err)
}

func (r *resultsFS) ReadDir(name string) ([]fs.DirEntry, error) {
	p, err := r.path("readdir", name)
	if err != nil {
		return nil, err
	}
	return os.ReadDir(p)
}

func (r *resultsFS) Stat(name string) (fs.FileInfo, error) {
	p, err := r.path("stat", name)
	if err != nil {
		return nil, err
	}
	return os.Stat(p)
}

func (r *resultsFS) Sub(dir string) (fs.FS, error) {
	if !fs.ValidPath(dir) {
		return nil, &fs.PathError{Op: "sub", Path: dir, Err: fs.ErrInvalid}
	}
	return &resultsFS{ctx: r.ctx, dir: filepath.Join(r.dir, filepath.FromSlash(path.Clean(dir))), refusal: r.refusal}, nil
}

// WriteReport writes the HTML report of the results folder dir to out and
// returns the path written. Without out, or with out inside dir, it goes
// into the folder through internal/store, like every file offload writes
// there (refused if a report.html of the user's stands in the way; a name
// there must end in .html, so that no result file is replaced by a page);
// anywhere else it is one atomic file (its folder made if missing), which
// replaces an existing file only if that is a report offload wrote, or
// with force.
func WriteReport(ctx context.Context, dir, out string, force bool, o ReportOptions, w io.Writer) (string, error) {
	if out == "" {
		out = filepath.Join(dir, ReportFile)
	}
	inside, _ := runner.SameDir(filepath.Dir(out), dir)
	if inside && !strings.HasSuffix(out, ".html") {
		return "", runner.BadInputf("-o %s: a report inside the results folder is a .html file (the other names there are results)", out)
	}
	if !inside {
		if err := mayReplace(ctx, out, force); err != nil {
			return "", err
		}
	}
	page, err := RenderReport(ctx, dir, o)
	if err != nil {
		return "", err
	}
	write := func(w io.Writer) error { _, err := w.Write(page); return err }
	if !inside {
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return "", err
		}
		if err := chart.WriteFileAtomic(filepath.Dir(out), filepath.Base(out), write); err != nil {
			return "", err
		}
		runner.NoteWritten(w, out)
		return out, nil
	}
	d, err := runner.AddToFolder(dir, []string{filepath.Base(out)})
	if err != nil {
		return "", err
	}
	defer d.Close()
	if err := d.WriteFile(filepath.Base(out), write); err != nil {
		return "", err
	}
	old, _ := d.Old()
	if err := d.WriteManifest(old); err != nil {
		return "", err
	}
	runner.NoteWritten(w, out)
	return out, nil
}

// mayReplace refuses, as bad input, an existing out that is not a report
// offload wrote, unless force: a file of the user's is never lost. Something
// other than a regular file there is refused even with force.
func mayReplace(ctx context.Context, out string, force bool) error {
	fi, err := os.Lstat(out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return runner.BadInputf("-o %s exists and is not a regular file: give another name", out)
	}
	if force {
		return nil
	}
	b, err := runner.ReadResult(ctx, out)
	if err == nil && htmlreport.IsReport(b) {
		return nil
	}
	return runner.BadInputf("-o %s exists and is not a report offload wrote: give another name, or --force to replace it", out)
}
