package gymenv

import (
	"bytes"
	"io"
	"testing"

	"github.com/offload-sim/offload/experiments"
)

// BenchmarkEnvStep is one environment's step on the default scenario,
// through the Env API: the engine's work for one task and two coroutine
// switches. Episodes restart when they end.
func BenchmarkEnvStep(b *testing.B) {
	data, err := experiments.Get("default")
	if err != nil {
		b.Fatal(err)
	}
	s := setup(b, string(data))
	e := s.NewEnv(0, 1)
	if err := e.Reset(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := e.Step(1 + i%2); err != nil {
			b.Fatal(err)
		}
		if e.Over() {
			if err := e.Reset(); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
	e.halt()
}

// BenchmarkServerStep64 is a server's step of 64 environments, frames
// read and written in memory: the Go side of one VectorOffloadEnv(64) step.
func BenchmarkServerStep64(b *testing.B) {
	data, err := experiments.Get("default")
	if err != nil {
		b.Fatal(err)
	}
	s := setup(b, string(data))
	const n = 64
	sv, err := s.NewServer(n)
	if err != nil {
		b.Fatal(err)
	}
	resets := make([]resetArg, n)
	if err := sv.answer(frameReset, resetFrame(resets...)[headerLen:]); err != nil {
		b.Fatal(err)
	}
	acts := make([]int32, n)
	for i := range acts {
		acts[i] = int32(1 + i%2)
	}
	step := stepFrame(acts...)
	var in bytes.Reader
	b.ReportAllocs()
	for b.Loop() {
		in.Reset(step)
		typ, p, err := readFrame(&in, sv.in)
		if err != nil {
			b.Fatal(err)
		}
		sv.in = p
		if err := sv.answer(typ, p); err != nil {
			b.Fatal(err)
		}
		if _, err := io.Discard.Write(sv.out); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "steps/s")
	sv.halt()
}
