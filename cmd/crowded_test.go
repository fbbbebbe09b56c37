package cmd

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A sweep over a hundred tiers writes all its files and exits 0: its share
// figure cannot give each tier a band and a legend entry, so it draws the
// largest eight and "other", and says so on stderr (it refused the legend,
// and the sweep exited 1 after writing its CSVs).
func TestCrowdedFigureDegrades(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "many.yaml", "name: many\nseed: 1\nseeds: 1\ntasks: 2000\nwarmup: 100\narrivals: {rate: 500}\n"+
		singleServerTiers(100)+"policies: [random]\nsweep: {param: arrivals.rate, values: [300, 500]}\n")
	out := filepath.Join(dir, "out")
	code, _, stderr := run(t, context.Background(), "run", "-f", f, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if want := "shares.png: 100 tiers are too many for a band each: the 8 with the largest shares are drawn, the other 92 as one band"; !strings.Contains(stderr, want) {
		t.Errorf("stderr %q does not say %q", stderr, want)
	}
	if fi, err := os.Stat(filepath.Join(out, "shares.png")); err != nil || fi.Size() == 0 {
		t.Errorf("shares.png: %v", err)
	}
}

// singleServerTiers is a scenario's tiers key: n edge tiers of one server
// of speed 10, t0 … t(n−1).
func singleServerTiers(n int) string {
	var b strings.Builder
	b.WriteString("tiers:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - {name: t%d, kind: edge, servers: 1, speed: 10}\n", i)
	}
	return b.String()
}
