package balancer

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// Every generated configuration passes its program's own check (haproxy
// -c, nginx -t) without a warning: with equal weights, and (a check takes
// up to a few tenths of a second, so with OFFLOAD_LONG=1 only) with
// weights, limits and a folder whose name needs quotes.
func TestCheckEveryAlgorithm(t *testing.T) {
	for _, a := range Algorithms() {
		t.Run(strings.ReplaceAll(a.Label, ":", "_"), func(t *testing.T) {
			bin := binary(t, a.Program)
			configs := []Config{
				{Algorithm: a.Label, Listen: "127.0.0.1:18080", Dir: t.TempDir(),
					Backends: []Backend{{"127.0.0.1:18081", 1}, {"127.0.0.1:18082", 1}}},
				{Algorithm: a.Label, Listen: "127.0.0.2:18080", Dir: t.TempDir() + "/a folder with spaces",
					Backends:       []Backend{{"127.0.0.1:18081", 5}, {"127.0.0.1:18082", 1}, {"127.0.0.1:18083", MaxWeight}},
					ConnectTimeout: 1500 * time.Millisecond, ServerTimeout: 90 * time.Minute, MaxConn: 20000},
			}
			if os.Getenv("OFFLOAD_LONG") == "" {
				configs = configs[:1]
			}
			for _, c := range configs {
				out, err := Check(context.Background(), c, bin)
				if err != nil {
					t.Fatal(err)
				}
				if low := strings.ToLower(out); strings.Contains(low, "warn") || strings.Contains(low, "alert") {
					t.Errorf("%s warns about its configuration:\n%s", a.Program, out)
				}
				t.Log(out)
			}
		})
	}
}
