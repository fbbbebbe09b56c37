package chart

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	write := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	if err := WriteFileAtomic(dir, "a.csv", write("old\n")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteFileAtomic(dir, "a.csv", func(w io.Writer) error {
		_, _ = io.WriteString(w, "half a fi")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("failing write: err = %v, want it to wrap %v", err, boom)
	}
	assertDir(t, dir, map[string]string{"a.csv": "old\n"})

	if err := WriteFileAtomic(dir, "a.csv", write("new\n")); err != nil {
		t.Fatal(err)
	}
	assertDir(t, dir, map[string]string{"a.csv": "new\n"})
	if fi, err := os.Stat(filepath.Join(dir, "a.csv")); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("mode = %v (err %v), want 0644", fi.Mode().Perm(), err)
	}

	if err := WriteFileAtomic(filepath.Join(dir, "missing"), "a.csv", write("x")); err == nil {
		t.Error("write into a missing folder succeeded")
	}
}

// assertDir checks that dir holds exactly these files (no temp leftovers).
func assertDir(t *testing.T, dir string, want map[string]string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != len(want) {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("dir holds %v, want only %d file(s)", names, len(want))
	}
	for name, content := range want {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(b) != content {
			t.Errorf("%s = %q (err %v), want %q", name, b, err, content)
		}
	}
}
