package gymenv

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

// The client side of the protocol, for the tests.

func frame(typ byte, payload []byte) []byte {
	return append(appendHeader(nil, typ, len(payload)), payload...)
}

type resetArg struct {
	seed, rep    uint64
	stride, mode uint32
}

func resetFrame(entries ...resetArg) []byte {
	var p []byte
	for _, e := range entries {
		p = binary.LittleEndian.AppendUint64(p, e.seed)
		p = binary.LittleEndian.AppendUint64(p, e.rep)
		p = binary.LittleEndian.AppendUint32(p, e.stride)
		p = binary.LittleEndian.AppendUint32(p, e.mode)
	}
	return frame(frameReset, p)
}

func stepFrame(actions ...int32) []byte {
	var p []byte
	for _, a := range actions {
		p = binary.LittleEndian.AppendUint32(p, uint32(a))
	}
	return frame(frameStep, p)
}

// batch is a decoded batch frame.
type batch struct {
	n, k      int
	obs       []float64
	reward    []float64
	seed, rep []uint64
	term      []bool
	count     []int
	task      []int64
	latency   []float64
	measured  []bool
}

// frames splits a server's output into its frames.
func frames(t *testing.T, out []byte) (types []byte, payloads [][]byte) {
	t.Helper()
	for len(out) > 0 {
		if len(out) < headerLen {
			t.Fatalf("%d bytes left: not a header", len(out))
		}
		n := int(binary.LittleEndian.Uint32(out[4:]))
		types = append(types, out[0])
		payloads = append(payloads, out[headerLen:headerLen+n])
		out = out[headerLen+n:]
	}
	return types, payloads
}

func decodeBatch(t *testing.T, p []byte) batch {
	t.Helper()
	u32 := func(i int) int { return int(binary.LittleEndian.Uint32(p[i:])) }
	n, k, m := u32(0), u32(4), u32(8)
	if len(p) != batchLen(n, k, m) {
		t.Fatalf("batch of %d bytes: want %d for n %d, k %d, m %d", len(p), batchLen(n, k, m), n, k, m)
	}
	b := batch{n: n, k: k}
	off := 16
	f64 := func(c int) []float64 {
		out := make([]float64, c)
		for i := range out {
			out[i] = math.Float64frombits(binary.LittleEndian.Uint64(p[off+8*i:]))
		}
		off += 8 * c
		return out
	}
	u64 := func(c int) []uint64 {
		out := make([]uint64, c)
		for i := range out {
			out[i] = binary.LittleEndian.Uint64(p[off+8*i:])
		}
		off += 8 * c
		return out
	}
	b.obs, b.reward = f64(n*k), f64(n)
	b.seed, b.rep = u64(n), u64(n)
	for i := range n {
		b.term = append(b.term, p[off+i] == 1)
	}
	off += n + pad8(n)
	for i := range n {
		b.count = append(b.count, u32(off+4*i))
	}
	off += 4*n + pad8(4*n)
	for _, x := range u64(m) {
		b.task = append(b.task, int64(x))
	}
	b.latency = f64(m)
	for i := range m {
		b.measured = append(b.measured, p[off+i] == 1)
	}
	return b
}

// serve runs a server of n environments on the frames in input.
func serve(t *testing.T, s *Setup, n int, input []byte) ([]byte, error) {
	t.Helper()
	sv, err := s.NewServer(n)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err = sv.Serve(bytes.NewReader(input), &out)
	return out.Bytes(), err
}

// The hello frame comes first and describes the run: the protocol's name
// and version, the tiers with the numbers a rule computes from, the fields,
// the scenario's episode and its baselines, clairvoyant ones marked.
func TestHello(t *testing.T) {
	s := setup(t, small)
	out, err := serve(t, s, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	types, payloads := frames(t, out)
	if string(types) != "H" {
		t.Fatalf("frames %q: want one hello", types)
	}
	var h Hello
	if err := json.Unmarshal(payloads[0], &h); err != nil {
		t.Fatal(err)
	}
	if h.Protocol != "offload-env" || h.Version != 1 || h.Envs != 2 || h.Seed != 7 || len(h.Tiers) != 3 || len(h.Fields) != 14 {
		t.Errorf("hello %+v", h)
	}
	if e := h.Episode; e.Tasks != 1500 || e.Warmup != 150 {
		t.Errorf("episode %+v: want the scenario's tasks and warmup", e)
	}
	want := TierInfo{Name: "cloud", Kind: "cloud", Servers: 16, Speed: 50, Mu: 50, MeanDelay: 0.06, Cs2: s.tiers[2].Cs2}
	if tr := h.Tiers[2]; tr != want || math.Abs(tr.Cs2-0.8) > 1e-12 {
		t.Errorf("tier %+v, want %+v (C_s² of Pareto α 2.5: 0.8)", tr, want)
	}
	clair := map[string]bool{}
	for _, b := range h.Baselines {
		clair[b.Label] = b.Clairvoyant
	}
	for label, want := range map[string]bool{"hybrid": false, "jsq": false, "random": false, "oracle": true, "lwl": true, "sita-e": true} {
		if got, ok := clair[label]; !ok || got != want {
			t.Errorf("baseline %s: clairvoyant %v (listed %v), want %v", label, got, ok, want)
		}
	}
}

// A batch answers each reset and step; the last step of an episode is
// terminated, carries the drain's reward and its tasks, and the step after
// it resets that environment (its action ignored): reward 0, not
// terminated, the next replicate (stride n), the first observation again.
func TestBatchesAndAutoreset(t *testing.T) {
	s := setup(t, small, "tasks=40", "warmup=0")
	const n = 2
	in := resetFrame(resetArg{3, 0, n, resetSeed}, resetArg{3, 1, n, resetSeed})
	for range 41 {
		in = append(in, stepFrame(1, 2)...)
	}
	in = append(in, resetFrame(resetArg{mode: resetNext}, resetArg{mode: resetNext})...)
	out, err := serve(t, s, n, in)
	if err != nil {
		t.Fatal(err)
	}
	types, payloads := frames(t, out)
	if string(types) != "H"+strings.Repeat("B", 43) {
		t.Fatalf("frames %q", types)
	}
	first := decodeBatch(t, payloads[1])
	var ret [n]float64
	var sum [n]float64
	var lasts [n]int
	for f := 2; f < 42; f++ {
		b := decodeBatch(t, payloads[f])
		j := 0 // the tasks are in environment order
		for i, c := range b.count {
			for range c {
				sum[i] += b.latency[j]
				j++
			}
		}
		for i := range n {
			ret[i] += b.reward[i]
			if b.term[i] {
				lasts[i] = f
			}
		}
	}
	for i := range n {
		if lasts[i] != 41 {
			t.Errorf("env %d: terminated at frame %d, want 41 (the 40th step)", i, lasts[i])
		}
		if math.Abs(ret[i]+sum[i]) > 1e-9*sum[i] {
			t.Errorf("env %d: return %v, total sojourn %v", i, ret[i], sum[i])
		}
	}
	auto := decodeBatch(t, payloads[42])
	for i := range n {
		if auto.reward[i] != 0 || auto.term[i] || auto.count[i] != 0 || auto.seed[i] != 3 || auto.rep[i] != uint64(i+n) {
			t.Errorf("autoreset env %d: reward %v, term %v, count %d, seed %d, rep %d: want 0, false, 0, 3, %d", i, auto.reward[i], auto.term[i], auto.count[i], auto.seed[i], auto.rep[i], i+n)
		}
	}
	next := decodeBatch(t, payloads[43])
	if next.rep[0] != 2*n || next.rep[1] != 2*n+1 {
		t.Errorf("reset after the autoreset: replicates %v, want [4 5]", next.rep)
	}
	// Replicate i + n of seed 3 is what a lone environment seeded there sees.
	lone := s.NewEnv(0, 1)
	lone.Seed(3, n, 1)
	if err := lone.Reset(); err != nil {
		t.Fatal(err)
	}
	obs := make([]float64, len(s.fields))
	lone.Observe(obs)
	for j := range obs {
		if obs[j] != auto.obs[j] {
			t.Fatalf("autoreset obs %v, lone replicate %d's %v", auto.obs[:len(obs)], n, obs)
		}
	}
	if first.obs[12] == auto.obs[12] {
		t.Errorf("the autoreset episode starts as replicate 0 did")
	}
	lone.halt()
}

// The same frames give the same bytes back.
func TestServerDeterministic(t *testing.T) {
	s := setup(t, small, "tasks=200", "warmup=20")
	in := resetFrame(resetArg{mode: resetNext}, resetArg{mode: resetNext}, resetArg{9, 4, 1, resetSeed})
	for i := range 500 {
		in = append(in, stepFrame(int32(i%3), int32(i/3%3), 1)...)
	}
	a, errA := serve(t, s, 3, in)
	b, errB := serve(t, s, 3, in)
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	if !bytes.Equal(a, b) {
		t.Errorf("two servers answered the same frames differently")
	}
}

// A frame the protocol does not allow is answered with an error frame
// naming the problem, and Serve returns an ErrProtocol; the client's end of
// input at a frame boundary is a clean exit.
func TestProtocolErrors(t *testing.T) {
	s := setup(t, small)
	reset := resetFrame(resetArg{mode: resetNext})
	for _, c := range []struct {
		name string
		in   []byte
		want string
	}{
		{"action too large", append(reset, stepFrame(3)...), "action 3: allowed 0..2 (a tier's index: 0 local, 1 edge, 2 cloud)"},
		{"negative action", append(reset, stepFrame(-1)...), "action -1"},
		{"two actions for one env", append(reset, stepFrame(1, 1)...), "step frame of 8 bytes: want 4"},
		{"unknown type", frame('X', nil), `frame type 'X'`},
		{"short reset", frame(frameReset, make([]byte, 8)), "reset frame of 8 bytes: want 24"},
		{"bad mode", resetFrame(resetArg{mode: 7}), "reset mode 7"},
		{"zero stride", resetFrame(resetArg{mode: resetSeed}), "stride 0"},
		{"truncated", append(reset, stepFrame(1)[:10]...), "inside a 'S' frame"},
		{"truncated header", append(reset, 'S', 0), "inside a frame header"},
		{"nonzero header", append([]byte{'S', 1, 0, 0}, 4, 0, 0, 0, 0, 0, 0, 0), "bytes 1–3 must be zero"},
		{"huge", append([]byte{'S', 0, 0, 0}, 0xff, 0xff, 0xff, 0xff), "at most"},
	} {
		out, err := serve(t, s, 1, c.in)
		if !errors.Is(err, ErrProtocol) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want ErrProtocol with %q", c.name, err, c.want)
			continue
		}
		types, payloads := frames(t, out)
		if types[len(types)-1] != frameError || !strings.Contains(string(payloads[len(payloads)-1]), c.want) {
			t.Errorf("%s: frames %q, last %q: want an error frame with %q", c.name, types, payloads[len(payloads)-1], c.want)
		}
	}
	out, err := serve(t, s, 1, append(reset, stepFrame(0)...))
	if err != nil {
		t.Fatalf("end of input after a step: %v", err)
	}
	if types, _ := frames(t, out); string(types) != "HBB" {
		t.Errorf("frames %q, want HBB", types)
	}
}
