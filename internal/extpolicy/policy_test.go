package extpolicy_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/dispatch/dispatchtest"
	"github.com/offload-sim/offload/internal/extpolicy"
)

func start(t testing.TB, ctx context.Context, cmd []string, timeout time.Duration, env extpolicy.Env) *extpolicy.Policy {
	t.Helper()
	p, err := extpolicy.New(extpolicy.Config{Command: cmd, Timeout: timeout, Tiers: dispatchtest.ThreeTiers(16), Seed: 42})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	if err := p.Start(ctx, env); err != nil {
		t.Fatalf("Start: %v", err)
	}
	return p
}

func view(task int) *dispatch.View {
	tiers := dispatchtest.ThreeTiers(16)
	return &dispatch.View{Now: float64(task) / 10, Task: task, Tiers: tiers,
		States: []dispatch.State{{Queued: task, Busy: 1}, {Busy: 2, InTransit: 1}, {}}}
}

// A well-behaved program sees the start message, one decide per task with
// the view's numbers, the done messages before the next decide, and end;
// its answers become decisions, its pred_latency a predicted wait.
func TestConversation(t *testing.T) {
	logFile := filepath.Join(t.TempDir(), "lines")
	env := extpolicy.Env{Run: extpolicy.Run{Experiment: "run", Label: "mine", Cell: 1, Param: "arrivals.rate", Value: 60, Replicate: 2, Devices: 1},
		Observation: extpolicy.Observation{Model: "fresh", CountOwn: true}}
	p := start(t, context.Background(), helperCommand("round", logFile), 10*time.Second, env)
	if !p.Feedback() {
		t.Fatal("the program asked for done messages; Feedback() = false")
	}
	for task := range 5 {
		v := view(task)
		d := p.Decide(v)
		if d.Tier != task%3 || !d.HasPred {
			t.Fatalf("task %d: decision %+v, want tier %d with a prediction", task, d, task%3)
		}
		if got := dispatch.PredictedLatency(&v.Tiers[d.Tier], d.PredWait); math.Abs(got-0.5) > 1e-12 {
			t.Errorf("task %d: predicted latency %v, want the program's 0.5", task, got)
		}
		p.Done(&dispatch.Completion{Task: task, Tier: d.Tier, Now: v.Now + 0.05, Latency: 0.05, Delay: 0.01, Wait: 0.01, Service: 0.03})
	}
	if err := p.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	lines := readLines(t, logFile)
	var types []string
	for _, l := range lines {
		types = append(types, l["type"].(string))
	}
	want := "start decide done decide done decide done decide done decide done end"
	if got := strings.Join(types, " "); got != want {
		t.Fatalf("messages %q, want %q", got, want)
	}
	s := lines[0]
	if s["version"] != float64(extpolicy.Version) || s["seed"] != float64(42) {
		t.Errorf("start: version %v seed %v, want %d and 42", s["version"], s["seed"], extpolicy.Version)
	}
	run := s["run"].(map[string]any)
	if run["label"] != "mine" || run["cell"] != float64(1) || run["replicate"] != float64(2) || run["value"] != float64(60) {
		t.Errorf("start: run %v", run)
	}
	tier := s["tiers"].([]any)[1].(map[string]any)
	if tier["name"] != "edge" || tier["kind"] != "edge" || tier["servers"] != float64(4) || tier["mean_delay"] != 0.005 || tier["mu"] != float64(25) {
		t.Errorf("start: tier 1 %v", tier)
	}
	if s["observation"].(map[string]any)["model"] != "fresh" {
		t.Errorf("start: observation %v", s["observation"])
	}
	d := lines[7] // task 3's decide
	ts := d["tiers"].([]any)
	if d["task"] != float64(3) || d["time"] != 0.3 || ts[0].(map[string]any)["queued"] != float64(3) ||
		ts[1].(map[string]any)["in_transit"] != float64(1) || ts[1].(map[string]any)["busy"] != float64(2) {
		t.Errorf("decide of task 3: %v", d)
	}
	done := lines[8]
	if done["task"] != float64(3) || done["tier"] != float64(0) || done["latency"] != 0.05 || done["service"] != 0.03 {
		t.Errorf("done of task 3: %v", done)
	}
}

// A program that declines done messages gets none.
func TestNoFeedback(t *testing.T) {
	logFile := filepath.Join(t.TempDir(), "lines")
	p := start(t, context.Background(), helperCommand("nofeed", logFile), 10*time.Second, extpolicy.Env{})
	if p.Feedback() {
		t.Fatal(`the program answered {"feedback": false}; Feedback() = true`)
	}
	p.Decide(view(0))
	p.Done(&dispatch.Completion{Task: 0})
	p.Decide(view(1))
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	for _, l := range readLines(t, logFile) {
		if l["type"] == "done" {
			t.Fatalf("a done message reached a program that declined them: %v", l)
		}
	}
}

// Every misbehaviour fails the run with a message naming the task and
// quoting what the program wrote; the decision is tier −1, refused by the
// engine, and Close returns the same error.
func TestMisbehaviour(t *testing.T) {
	for _, c := range []struct {
		mode    string
		timeout time.Duration
		want    []string
	}{
		{"badjson", 10 * time.Second, []string{"task 5", "not valid JSON", `"tier=1, please"`}},
		{"notier", 10 * time.Second, []string{"task 5", `"tier" 7 does not exist: the run has 3 tiers`, `{\"tier\": 7}`}},
		{"unknown", 10 * time.Second, []string{"task 5", `unknown key "teir"`}},
		{"chatty", 10 * time.Second, []string{"task 5", "more than one line in answer to decide", `"deciding task 5"`}},
		{"exit", 10 * time.Second, []string{"task 5", "exited with status 3 before the answer to decide", `its stderr begins "boom: the helper gives up\n"`}},
		{"hang", 300 * time.Millisecond, []string{"task 5", "no answer within the timeout of 300ms"}},
		{"noflush", 300 * time.Millisecond, []string{"task 5", "within the timeout", `it wrote "{\"tier\": 0}"`}},
	} {
		t.Run(c.mode, func(t *testing.T) {
			p := start(t, context.Background(), helperCommand(c.mode), c.timeout, extpolicy.Env{Log: "policies/x.log"})
			if d := p.Decide(view(5)); d.Tier != -1 {
				t.Fatalf("decision %+v, want tier -1", d)
			}
			err := p.Err()
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if d := p.Decide(view(6)); d.Tier != -1 {
				t.Errorf("a decision after the failure: %+v", d)
			}
			if cerr := p.Close(); cerr != err {
				t.Errorf("Close: %v, want the first failure %v", cerr, err)
			}
		})
	}
}

// A program that does not start, or whose exit after end is not 0, fails.
func TestStartAndExit(t *testing.T) {
	p, err := extpolicy.New(extpolicy.Config{Command: []string{"./no-such-program"}, Timeout: time.Second, Tiers: dispatchtest.ThreeTiers(16)})
	if err != nil {
		t.Fatal(err)
	}
	err = p.Start(context.Background(), extpolicy.Env{Dir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "did not start") || !strings.Contains(err.Error(), "no-such-program") {
		t.Errorf("Start: %v, want a failure naming the program", err)
	}
	if cerr := p.Close(); cerr != err {
		t.Errorf("Close: %v, want %v", cerr, err)
	}

	p = start(t, context.Background(), helperCommand("status"), 10*time.Second, extpolicy.Env{})
	p.Decide(view(0))
	if err := p.Close(); err == nil || !strings.Contains(err.Error(), "exited with status 4 after the end message") {
		t.Errorf("Close: %v, want the exit status 4", err)
	}
}

// The stderr log keeps the first MaxLog bytes and says how much it dropped.
func TestStderrIsBounded(t *testing.T) {
	var log bytes.Buffer
	p := start(t, context.Background(), helperCommand("loud"), 10*time.Second, extpolicy.Env{Stderr: &log})
	p.Decide(view(0))
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	body, note, _ := strings.Cut(log.String(), "\n[offload: ")
	if len(body) != extpolicy.MaxLog || !strings.HasPrefix(note, fmt.Sprint(40<<16-extpolicy.MaxLog, " more bytes of stderr dropped")) {
		t.Errorf("log of %d bytes, note %q; want the first %d and a note of the %d dropped", len(body), note, extpolicy.MaxLog, 40<<16-extpolicy.MaxLog)
	}
}

// A program that ignores SIGTERM and never exits, with a child that does
// the same, is killed with its child: nothing outlives Close.
func TestStubbornProgramIsKilled(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child")
	p := start(t, context.Background(), helperCommand("stubborn", pidFile), 200*time.Millisecond, extpolicy.Env{})
	p.Decide(view(0))
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	child, _ := strconv.Atoi(string(b))
	if !alive(child) {
		t.Fatalf("the child %d is not running before Close", child)
	}
	// A failure to exit within 200ms of end, or (on a machine too busy for
	// the helper to answer in time) to answer the decide.
	err = p.Close()
	if err == nil || !strings.Contains(err.Error(), "within") {
		t.Errorf("Close: %v, want a failure to exit", err)
	}
	// Killed with SIGKILL; its reaping (by init) may lag a little.
	for i := 0; alive(child) && i < 500; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if alive(child) {
		t.Errorf("the program's child %d outlived Close", child)
	}
}

// Cancelling the run's context ends a pending decision at once, as an
// interruption, not a failure of the program's.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	p := start(t, ctx, helperCommand("hang"), time.Hour, extpolicy.Env{})
	time.AfterFunc(50*time.Millisecond, cancel)
	if d := p.Decide(view(0)); d.Tier != -1 {
		t.Fatalf("decision %+v after cancellation", d)
	}
	if err := p.Err(); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
	p.Close()
}

// alive reports whether pid is a live process (not gone, not a zombie).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true // no /proc: the signal test is all there is
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) == 0 || fields[0] != "Z"
}

func readLines(t *testing.T, name string) []map[string]any {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

// BenchmarkRoundTrip is the cost of one decision with a minimal program
// (the Go helper in fast mode): encode, write, the program's turn, read,
// parse.
func BenchmarkRoundTrip(b *testing.B) {
	p := start(b, context.Background(), helperCommand("fast"), 10*time.Second, extpolicy.Env{})
	v := view(1)
	b.ReportAllocs()
	for b.Loop() {
		v.Task++
		if d := p.Decide(v); d.Tier != 0 {
			b.Fatalf("decision %+v: %v", d, p.Err())
		}
	}
	b.StopTimer()
	if err := p.Close(); err != nil {
		b.Fatal(err)
	}
}
