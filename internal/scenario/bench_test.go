package scenario_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/scenario"
)

// benchDocs builds the documents of BenchmarkParseLarge, each under
// MaxFileSize at n = 10⁵: n keys in one mapping (unknown, repeated, or a
// policy's options), n items in one list (sweep values, policy entries),
// and n aliases in the tiers.
func benchDocs(n int) map[string][]byte {
	head := "tasks: 1000\narrivals: {rate: 10}\n"
	tier := "tiers: [{name: edge, kind: edge, servers: 1, speed: 10}]\n"
	docs := map[string]*strings.Builder{}
	doc := func(name, start string) *strings.Builder {
		b := &strings.Builder{}
		b.WriteString(start)
		docs[name] = b
		return b
	}
	unknown := doc("unknown-keys", head+tier)
	dups := doc("duplicate-keys", head+tier)
	options := doc("option-keys", head+tier+"policies: [{name: hybrid")
	values := doc("sweep-values", head+tier+"sweep:\n  param: arrivals.rate\n  values: [")
	entries := doc("policy-items", head+tier+"policies: [")
	aliases := doc("tier-aliases", head+"tiers: [&t {name: a, kind: edge, servers: 1, speed: 1}")
	for i := range n {
		fmt.Fprintf(unknown, "k%x: 0\n", i)
		dups.WriteString("seeds: 1\n")
		fmt.Fprintf(options, ",%x: 0", i)
		fmt.Fprintf(values, "%d,", i+1)
		entries.WriteString("jsq,")
		aliases.WriteString(",*t")
	}
	options.WriteString("}]\n")
	values.WriteString("]\n")
	entries.WriteString("]\n")
	aliases.WriteString("]\n")
	out := map[string][]byte{}
	for name, b := range docs {
		out[name] = []byte(b.String())
	}
	return out
}

// BenchmarkParseLarge shows that Parse is linear in the document: compare
// the ns/op at n=1e4 and n=1e5 (ten times the input should cost about ten
// times the time). It asserts nothing about time, by design.
func BenchmarkParseLarge(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		docs := benchDocs(n)
		for _, name := range []string{"unknown-keys", "duplicate-keys", "option-keys", "sweep-values", "policy-items", "tier-aliases"} {
			b.Run(fmt.Sprintf("%s/n=%d", name, n), func(b *testing.B) {
				data := docs[name]
				if len(data) > scenario.MaxFileSize {
					b.Fatalf("%d bytes: over MaxFileSize", len(data))
				}
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					_, _ = scenario.Parse("big.yaml", data, nil, catalog)
				}
			})
		}
	}
}
