package balancer

import (
	"context"
	"strings"
	"testing"
)

// Every generated configuration passes its program's own check (haproxy
// -c, nginx -t) without a warning: with equal weights, and with weights
// and limits of every kind.
func TestCheckEveryAlgorithm(t *testing.T) {
	for _, a := range Algorithms() {
		t.Run(strings.ReplaceAll(a.Label, ":", "_"), func(t *testing.T) {
			bin := binary(t, a.Program)
			for _, c := range []Config{
				{Algorithm: a.Label, Listen: "127.0.0.1:18080", Dir: t.TempDir(),
					Backends: []Backend{{"127.0.0.1:18081", 1}, {"127.0.0.1:18082", 1}}},
				{Algorithm: a.Label, Listen: "127.0.0.2:18080", Dir: t.TempDir() + "/a folder with spaces",
					Backends:       []Backend{{"127.0.0.1:18081", 5}, {"127.0.0.1:18082", 1}, {"127.0.0.1:18083", MaxWeight}},
					ConnectTimeout: 1500 * 1e6, ServerTimeout: 90 * 60 * 1e9, MaxConn: 20000},
			} {
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
