package scenario_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/scenario"
)

// benchDocs builds the documents of BenchmarkParseLarge: n keys in one
// mapping (unknown, duplicate), and n items in one list.
func benchDocs(n int) map[string][]byte {
	head := "tasks: 1000\narrivals: {rate: 10}\n"
	tier := "tiers: [{name: edge, kind: edge, servers: 1, speed: 10}]\n"
	var unknown, dups, items, tiers strings.Builder
	unknown.WriteString(head + tier)
	dups.WriteString(head + tier)
	items.WriteString(head + tier + "sweep:\n  param: arrivals.rate\n  values:\n")
	tiers.WriteString(head + "tiers:\n")
	for i := range n {
		fmt.Fprintf(&unknown, "k%d: %d\n", i, i)
		fmt.Fprintf(&dups, "seeds: %d\n", i+1)
		fmt.Fprintf(&items, "    - %d\n", i+1)
		fmt.Fprintf(&tiers, "  - {name: t%d, kind: edge, servers: 1, speed: 10}\n", i)
	}
	return map[string][]byte{"unknown-keys": []byte(unknown.String()), "duplicate-keys": []byte(dups.String()),
		"list-items": []byte(items.String()), "tiers": []byte(tiers.String())}
}

// BenchmarkParseLarge shows that Parse is linear in the document: compare
// the ns/op at n=1e4 and n=1e5 (ten times the input should cost about ten
// times the time). It asserts nothing about time, by design.
func BenchmarkParseLarge(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		docs := benchDocs(n)
		for _, name := range []string{"unknown-keys", "duplicate-keys", "list-items", "tiers"} {
			b.Run(fmt.Sprintf("%s/n=%d", name, n), func(b *testing.B) {
				data := docs[name]
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					_, _ = scenario.Parse("big.yaml", data, nil, catalog)
				}
			})
		}
	}
}
