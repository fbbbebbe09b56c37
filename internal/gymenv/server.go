package gymenv

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Server holds n environments of one setup and answers a client's frames
// (docs/env.md): a reset or a step of all n at once, one batch frame back.
type Server struct {
	s    *Setup
	envs []*Env
	obs  []float64 // n × fields
	rew  []float64
	term []byte
	in   []byte // the last client frame's payload
	out  []byte // the batch being written
}

// NewServer returns a server of n environments: environment i's first
// episode is replicate i of the scenario's seed, and each of its later
// ones n replicates on, so that the n cover the replicates of `offload run`
// without a gap or a repeat.
func (s *Setup) NewServer(n int) (*Server, error) {
	if n < 1 || n > MaxEnvs {
		return nil, fmt.Errorf("--envs %d: must be in [1, %d]", n, MaxEnvs)
	}
	sv := &Server{s: s, envs: make([]*Env, n), obs: make([]float64, n*len(s.fields)), rew: make([]float64, n), term: make([]byte, n)}
	for i := range sv.envs {
		sv.envs[i] = s.NewEnv(i, n)
	}
	return sv, nil
}

// MaxEnvs bounds a server's environments.
const MaxEnvs = 1 << 16

// Serve writes the hello frame, then answers the frames read from r on w
// until r ends (nil: the client closed its end). A frame the protocol does
// not allow (an action out of range, a wrong length) is answered with an
// error frame, and Serve returns an error wrapping ErrProtocol; an engine
// error likewise, unwrapped.
func (sv *Server) Serve(r io.Reader, w io.Writer) error {
	br := bufio.NewReaderSize(r, 1<<16)
	hello := sv.s.hello
	hello.Envs = len(sv.envs)
	js, err := json.Marshal(hello)
	if err != nil {
		return err
	}
	if _, err := w.Write(append(appendHeader(nil, frameHello, len(js)), js...)); err != nil {
		return err
	}
	for {
		var typ byte
		typ, sv.in, err = readFrame(br, sv.in)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err == nil {
			err = sv.answer(typ, sv.in)
		}
		if err != nil {
			sv.halt()
			msg := err.Error()
			_, _ = w.Write(append(appendHeader(nil, frameError, len(msg)), msg...))
			return err
		}
		if _, err := w.Write(sv.out); err != nil {
			sv.halt()
			return err
		}
	}
}

// halt ends every environment's episode, so that no coroutine outlives Serve.
func (sv *Server) halt() {
	for _, e := range sv.envs {
		e.halt()
	}
}

// answer handles one frame and leaves the batch to write in sv.out.
func (sv *Server) answer(typ byte, p []byte) error {
	n := len(sv.envs)
	switch typ {
	case frameReset:
		if len(p) != n*resetEntry {
			return protocolErr("reset frame of %d bytes: want %d (%d environments × %d)", len(p), n*resetEntry, n, resetEntry)
		}
		return sv.reset(p)
	case frameStep:
		if len(p) != 4*n {
			return protocolErr("step frame of %d bytes: want %d (%d environments × an int32 action)", len(p), 4*n, n)
		}
		return sv.step(p)
	}
	return protocolErr("frame type %q: allowed: %q (reset), %q (step)", typ, frameReset, frameStep)
}

func (sv *Server) reset(p []byte) error {
	for i, e := range sv.envs {
		q := p[i*resetEntry:]
		seed, rep := binary.LittleEndian.Uint64(q), binary.LittleEndian.Uint64(q[8:])
		stride, mode := binary.LittleEndian.Uint32(q[16:]), binary.LittleEndian.Uint32(q[20:])
		switch mode {
		case resetNext:
		case resetSeed:
			if rep > maxReplicate || stride < 1 || uint64(stride) > maxReplicate {
				return protocolErr("environment %d: replicate %d, stride %d: allowed replicate in [0, %d], stride in [1, %d]", i, rep, stride, uint64(maxReplicate), uint64(maxReplicate))
			}
			e.Seed(seed, int(rep), int(stride))
		default:
			return protocolErr("environment %d: reset mode %d: allowed %d (next replicate), %d (seed)", i, mode, resetNext, resetSeed)
		}
	}
	for i, e := range sv.envs {
		if err := e.Reset(); err != nil {
			return fmt.Errorf("environment %d: %w", i, err)
		}
		sv.rew[i], sv.term[i] = 0, 0
	}
	sv.write()
	return nil
}

// maxReplicate bounds a replicate: its stream id takes it shifted by 16
// bits (workload.StreamID), and an episode's replicate grows by its stride.
const maxReplicate = 1<<47 - 1

func (sv *Server) step(p []byte) error {
	k := len(sv.s.tiers)
	for i := range sv.envs {
		if a := int32(binary.LittleEndian.Uint32(p[4*i:])); a < 0 || int(a) >= k {
			return protocolErr("environment %d: action %d: allowed 0..%d (a tier's index: %s)", i, a, k-1, sv.tierNames())
		}
	}
	for i, e := range sv.envs {
		sv.term[i] = 0
		if e.Over() { // next-step autoreset: this step's action is ignored
			if err := e.Reset(); err != nil {
				return fmt.Errorf("environment %d: %w", i, err)
			}
			sv.rew[i] = 0
			continue
		}
		r, err := e.Step(int(int32(binary.LittleEndian.Uint32(p[4*i:]))))
		if err != nil {
			return fmt.Errorf("environment %d: %w", i, err)
		}
		sv.rew[i] = r
		if e.Over() {
			sv.term[i] = 1
		}
	}
	sv.write()
	return nil
}

func (sv *Server) tierNames() string {
	s := ""
	for i, t := range sv.s.tiers {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%d %s", i, t.Name)
	}
	return s
}

// write lays out the batch frame of the last reset or step in sv.out.
func (sv *Server) write() {
	n, k := len(sv.envs), len(sv.s.fields)
	m := 0
	for _, e := range sv.envs {
		m += len(e.Done())
	}
	b := appendHeader(sv.out[:0], frameBatch, batchLen(n, k, m))
	b = binary.LittleEndian.AppendUint32(b, uint32(n))
	b = binary.LittleEndian.AppendUint32(b, uint32(k))
	b = binary.LittleEndian.AppendUint32(b, uint32(m))
	b = binary.LittleEndian.AppendUint32(b, 0)
	for i, e := range sv.envs {
		o := sv.obs[i*k : (i+1)*k]
		e.Observe(o)
		for _, x := range o {
			b = appendF64(b, x)
		}
	}
	for _, r := range sv.rew {
		b = appendF64(b, r)
	}
	for _, e := range sv.envs {
		b = binary.LittleEndian.AppendUint64(b, e.seed)
	}
	for _, e := range sv.envs {
		b = binary.LittleEndian.AppendUint64(b, uint64(e.rep))
	}
	b = append(b, sv.term...)
	b = appendPad(b, n)
	sv.out = appendPad(sv.appendDone(b), m)
}

// appendDone lays out the completions of the batch frame: each env's
// count, then every completion's task, latency and measured flag.
func (sv *Server) appendDone(b []byte) []byte {
	for _, e := range sv.envs {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(e.Done())))
	}
	b = appendPad(b, 4*len(sv.envs))
	for _, e := range sv.envs {
		for _, r := range e.Done() {
			b = binary.LittleEndian.AppendUint64(b, uint64(r.Task))
		}
	}
	for _, e := range sv.envs {
		for _, r := range e.Done() {
			b = appendF64(b, r.Latency)
		}
	}
	for _, e := range sv.envs {
		for _, r := range e.Done() {
			if r.Measured {
				b = append(b, 1)
			} else {
				b = append(b, 0)
			}
		}
	}
	return b
}
