package runner

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/offload-sim/offload/internal/htmlreport"
	"github.com/offload-sim/offload/internal/report"
)

// ReportFile is the report's name inside a results folder.
const ReportFile = "report.html"

// renderReport makes the HTML report of the results folder dir.
func renderReport(dir string) ([]byte, error) {
	if fi, err := os.Stat(dir); err == nil && fi.Mode().IsRegular() {
		// os.DirFS of a file fails on its first read with "not a
		// directory" about manifest.json, which hides the slip.
		return nil, badInputf("%s is a regular file, not a results folder", dir)
	}
	var b bytes.Buffer
	err := htmlreport.Write(&b, os.DirFS(dir), htmlreport.Options{Generator: "offload " + Version()})
	if errors.Is(err, htmlreport.ErrNotResults) || errors.Is(err, fs.ErrNotExist) {
		return nil, badInputf("%s: %w", dir, err)
	}
	return b.Bytes(), err
}

// WriteReport writes the HTML report of the results folder dir to out and
// returns the path written. Without out, or with out inside dir, it goes
// into the folder through internal/store, like every file offload writes
// there (refused if a report.html of the user's stands in the way); anywhere
// else it is one atomic file.
func WriteReport(dir, out string, w io.Writer) (string, error) {
	if out == "" {
		out = filepath.Join(dir, ReportFile)
	}
	page, err := renderReport(dir)
	if err != nil {
		return "", err
	}
	write := func(w io.Writer) error { _, err := w.Write(page); return err }
	if same, _ := sameDir(filepath.Dir(out), dir); !same {
		if err := report.WriteFileAtomic(filepath.Dir(out), filepath.Base(out), write); err != nil {
			return "", err
		}
		noteWritten(w, out)
		return out, nil
	}
	d, err := addToFolder(dir, []string{filepath.Base(out)})
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
	noteWritten(w, out)
	return out, nil
}

// sameDir reports whether a and b name the same folder.
func sameDir(a, b string) (bool, error) {
	fa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(fa, fb), nil
}
