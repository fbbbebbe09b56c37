package scenario_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/offload-sim/offload/internal/scenario"
)

func TestTmpSlow(t *testing.T) {
	dir := os.Getenv("CORPUS")
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		lines := strings.SplitN(string(b), "\n", 4)
		data, _ := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
		set, _ := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[2], "string("), ")"))
		start := time.Now()
		scenario.Parse("x", []byte(data), []string{set})
		if d := time.Since(start); d > 20*time.Millisecond {
			t.Logf("%s: %v (%d bytes) %q %q", filepath.Base(f), d, len(data), data[:min(len(data), 300)], set)
		}
	}
}
