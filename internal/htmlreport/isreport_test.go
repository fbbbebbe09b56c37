package htmlreport

import (
	"bytes"
	"testing"
	"testing/fstest"
)

// IsReport knows Write's pages, and nothing else: a file of the user's
// under a report's name is never taken for one.
func TestIsReport(t *testing.T) {
	var b bytes.Buffer
	manifest := `{"tool": "offload", "experiment": "run", "files": []}`
	if err := Write(&b, fstest.MapFS{"manifest.json": {Data: []byte(manifest)}}, Options{Generator: "offload v0"}); err != nil {
		t.Fatal(err)
	}
	if !IsReport(b.Bytes()) {
		t.Errorf("IsReport of Write's page is false:\n%.300s", b.Bytes())
	}
	for _, s := range []string{"", "my notes", "<!DOCTYPE html>\n<html><body>mine</body></html>\n", "<footer>Made by offload</footer>"} {
		if IsReport([]byte(s)) {
			t.Errorf("IsReport(%q) is true", s)
		}
	}
}
