package cmd

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain lets the test binary stand in for the offload binary: with
// OFFLOAD_TEST_AS_MAIN=1 in its environment it runs the command line it is
// given instead of the tests, so that the Python tests (which start
// `offload env` and `offload run`) need no separate build.
func TestMain(m *testing.M) {
	if os.Getenv("OFFLOAD_TEST_AS_MAIN") == "1" {
		os.Exit(Main(os.Args[1:], System()))
	}
	os.Exit(m.Run())
}

func TestEnvFlags(t *testing.T) {
	var got *envOptions
	c := newEnvCmd(IO{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}, func(o *envOptions) error { got = o; return nil })
	c.SetArgs([]string{"-f", "s.yaml", "--envs", "64", "--set", "tasks=10", "--seed", "5"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.envs != 64 || got.sf.file != "s.yaml" || got.sf.seed != 5 || len(got.sf.sets) != 1 {
		t.Errorf("options %+v", got)
	}
}

// runEnvCLI runs `offload env` in process with stdin in.
func runEnvCLI(t *testing.T, in []byte, args ...string) (code int, stdout []byte, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Execute(context.Background(), append([]string{"env"}, args...), IO{In: bytes.NewReader(in), Out: &out, Err: &errb})
	return code, out.Bytes(), errb.String()
}

// offload env: bad input exits 2 naming it, before any frame is written;
// a bad frame exits 2 after an error frame, with the message on stderr;
// the end of stdin exits 0.
func TestEnvCommand(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "s.yaml", tiny)
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"envs 0", []string{"-f", f, "--envs", "0"}, "--envs 0: must be in [1, 65536]"},
		{"devices", []string{"-f", f, "--set", "devices=2"}, "devices: 2"},
		{"sweep", []string{"-f", f, "--set", "sweep={param: arrivals.rate, values: [40, 60]}"}, "sweep: 2 cells"},
		{"seeds", []string{"-f", f, "--seeds", "3"}, "--seeds"},
		{"bad scenario", []string{"-f", filepath.Join(dir, "none.yaml")}, "no such file"},
	} {
		code, out, stderr := runEnvCLI(t, nil, c.args...)
		if code != ExitUsage || len(out) != 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, %d bytes out, stderr %q: want 2, none, %q", c.name, code, len(out), stderr, c.want)
		}
	}
	frame := func(typ byte, payload []byte) []byte {
		return append(binary.LittleEndian.AppendUint32([]byte{typ, 0, 0, 0}, uint32(len(payload))), payload...)
	}
	reset := frame('R', make([]byte, 24))
	code, out, stderr := runEnvCLI(t, append(reset, frame('S', []byte{9, 0, 0, 0})...), "-f", f)
	want := "action 9: allowed 0..1 (a tier's index: 0 edge, 1 cloud)"
	if code != ExitUsage || !strings.Contains(stderr, want) {
		t.Errorf("bad action: exit %d, stderr %q: want 2 and %q", code, stderr, want)
	}
	if i := bytes.LastIndexByte(out, 'E'); i < 0 || !bytes.Contains(out[i:], []byte(want)) {
		t.Errorf("bad action: no error frame with %q at the end of stdout", want)
	}
	code, out, stderr = runEnvCLI(t, reset, "-f", f)
	if code != ExitOK || stderr != "" || out[0] != 'H' {
		t.Errorf("end of input: exit %d, stderr %q, first byte %q: want 0, nothing, a hello", code, stderr, out[0])
	}
}

// An interrupt ends offload env while it waits for a frame: exit 130.
func TestEnvInterrupt(t *testing.T) {
	f := writeFile(t, t.TempDir(), "s.yaml", tiny)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	code := make(chan int, 1)
	go func() {
		code <- Execute(ctx, []string{"env", "-f", f}, IO{In: inR, Out: outW, Err: io.Discard})
	}()
	h := make([]byte, 1)
	if _, err := io.ReadFull(outR, h); err != nil || h[0] != 'H' {
		t.Fatalf("first byte %q, %v: want the hello", h, err)
	}
	go func() { _, _ = io.Copy(io.Discard, outR) }()
	cancel()
	if c := <-code; c != ExitInterrupted {
		t.Errorf("exit %d, want %d", c, ExitInterrupted)
	}
	inW.Close() // the server, blocked in its read, ends too
	outR.Close()
}

// The Python package's tests (python/tests, unittest) and the examples
// that drive it, against this binary as `offload`: behind OFFLOAD_PYTHON=1
// (CI sets it), as each starts Python and servers; the long ones (the
// learner, the leaderboard, a pip install) also need OFFLOAD_LONG.
func TestPythonEnv(t *testing.T) {
	if os.Getenv("OFFLOAD_PYTHON") != "1" {
		t.Skip("starts Python: set OFFLOAD_PYTHON=1")
	}
	needPython(t)
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	c := exec.Command("python3", "-m", "unittest", "discover", "-s", filepath.Join(root, "python", "tests"))
	c.Dir = root
	c.Env = append(os.Environ(), "OFFLOAD_TEST_AS_MAIN=1", "OFFLOAD_BIN="+os.Args[0], "PYTHONPATH="+filepath.Join(root, "python"))
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("python3 -m unittest: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
