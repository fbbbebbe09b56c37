package extpolicy

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/dispatch/dispatchtest"
)

// Answers are read as JSON reads them: whitespace, key order, numbers in
// any JSON spelling, null for an absent prediction; anything else is
// refused with a message saying what is allowed.
func TestDecisionAnswers(t *testing.T) {
	for _, c := range []struct {
		line    string
		tier    int
		pred    float64
		hasPred bool
		err     string
	}{
		{line: `{"tier":1}`, tier: 1},
		{line: " { \"tier\" : 2 , \"pred_latency\" : 0.25 }\r\n", tier: 2, pred: 0.25, hasPred: true},
		{line: `{"pred_latency": 1e-3, "tier": 0}`, tier: 0, pred: 0.001, hasPred: true},
		{line: `{"tier": 1.0}`, tier: 1},
		{line: `{"tier": 1, "pred_latency": null}`, tier: 1},
		{line: `{"tier": "1"}`, err: `"tier" is "1": want an integer`},
		{line: `{"tier": 1.5}`, err: `"tier" is 1.5: want an integer`},
		{line: `{"tier": 3}`, err: `"tier" 3 does not exist: the run has 3 tiers, 0 to 2`},
		{line: `{"tier": -1}`, err: `"tier" -1 does not exist`},
		{line: `{"tier": 01}`, err: "not valid JSON"},
		{line: `{"tier": 1, "pred_latency": -2}`, err: `"pred_latency" is -2: want a finite number`},
		{line: `{"tier": 1, "pred_latency": [1]}`, err: `"pred_latency" is [1]`},
		{line: `{"tier": 1, "why": "x"}`, err: `unknown key "why"`},
		{line: `{"ti\u0065r": 1}`, tier: 1},
		{line: `{}`, err: `no "tier"`},
		{line: `[1]`, err: "not a JSON object"},
		{line: `null`, err: "not a JSON object"},
		{line: `{"tier": 1}{"tier": 2}`, err: "not valid JSON"},
		{line: `tier 1`, err: "not valid JSON"},
	} {
		fs, err := parseAnswer([]byte(c.line), nil)
		var tier int
		var pred float64
		var hasPred bool
		if err == nil {
			tier, pred, hasPred, err = decision(fs, 3)
		}
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.line, err, c.err)
			}
			continue
		}
		if err != nil || tier != c.tier || hasPred != c.hasPred || math.Abs(pred-c.pred) > 1e-15 {
			t.Errorf("%s: tier %d pred %v/%v err %v; want %d %v/%v", c.line, tier, pred, hasPred, err, c.tier, c.pred, c.hasPred)
		}
	}
}

func TestStartAnswers(t *testing.T) {
	for _, c := range []struct {
		line     string
		feedback bool
		err      string
	}{
		{line: `{}`, feedback: true},
		{line: `{"feedback": false}`},
		{line: `{"feedback": true, "version": 1}`, feedback: true},
		{line: `{"version": 2}`, err: "speaks protocol version 1"},
		{line: `{"feedback": "no"}`, err: "want true or false"},
		{line: `{"done": false}`, err: `unknown key "done"`},
	} {
		fs, err := parseAnswer([]byte(c.line), nil)
		var fb bool
		if err == nil {
			fb, err = startAnswer(fs)
		}
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.line, err, c.err)
			}
		} else if err != nil || fb != c.feedback {
			t.Errorf("%s: feedback %v, %v", c.line, fb, err)
		}
	}
}

// The hand-written messages are valid JSON with the documented keys.
func TestMessagesAreJSON(t *testing.T) {
	tiers := dispatchtest.ThreeTiers(16)
	v := &dispatch.View{Now: 1.5e-7, Task: 12, Tiers: tiers, States: make([]dispatch.State, 3), Observed: []float64{1e-7, 0, 1.5e-7}}
	v.States[1] = dispatch.State{Queued: 3, Busy: 4, InTransit: 2}
	var m struct {
		Type  string
		Task  int
		Time  float64
		Tiers []struct {
			Queued, Busy int
			InTransit    int `json:"in_transit"`
			Age          float64
		}
	}
	line := appendDecide(nil, v)
	if err := json.Unmarshal(line, &m); err != nil || m.Type != "decide" || m.Task != 12 || m.Time != 1.5e-7 || len(m.Tiers) != 3 ||
		m.Tiers[1].Queued != 3 || m.Tiers[1].InTransit != 2 || m.Tiers[0].Age != v.Age(0) {
		t.Errorf("decide %s: %+v, %v", line, m, err)
	}
	if bytes.Contains(line, []byte(`"data"`)) {
		t.Errorf("decide without data: %s", line)
	}
	v.Data = 8e5
	var withData struct{ Data float64 }
	if line = appendDecide(nil, v); json.Unmarshal(line, &withData) != nil || withData.Data != 8e5 {
		t.Errorf("decide with 8e5 bits of data: %s", line)
	}
	var d map[string]any
	line = appendDone(nil, &dispatch.Completion{Task: 3, Tier: 2, Now: 4, Latency: 0.5, Delay: 0.1, Wait: 0.2, Service: 0.2})
	if err := json.Unmarshal(line, &d); err != nil || d["type"] != "done" || d["latency"] != 0.5 || d["tier"] != float64(2) || len(d) != 8 {
		t.Errorf("done %s: %v, %v", line, d, err)
	}
	if s, err := appendStart(nil, tiers, 1, Run{Value: math.NaN()}, Observation{Model: "fresh"}); err != nil || !strings.Contains(string(s), `"value":null`) {
		t.Errorf("start without a sweep: %s, %v", s, err)
	}
}

// Reading the usual answer allocates nothing.
func TestAnswerAllocations(t *testing.T) {
	line := []byte(`{"tier": 2, "pred_latency": 0.125}` + "\n")
	fs := make([]field, 0, 4)
	if n := testing.AllocsPerRun(100, func() {
		f, _ := parseAnswer(line, fs)
		decision(f, 3)
	}); n != 0 {
		t.Errorf("%v allocations per answer", n)
	}
}

// FuzzAnswer: any line is either refused or read as encoding/json reads
// it: the hand-written reader never accepts what JSON refuses, nor reads a
// different tier.
func FuzzAnswer(f *testing.F) {
	for _, s := range []string{`{"tier":1}`, `{"tier": 2, "pred_latency": 0.5}`, `{"tier":1e0}`, `{"tier":-0}`, `{"tier":01}`,
		`{"tier":1,}`, `{"tier" 1}`, `{"tier":true}`, `{"a":null,"tier":0}`, "{\"tier\":1}\r\n", `{"tier":1}x`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		fs, err := parseAnswer(line, nil)
		if err != nil {
			return
		}
		var m map[string]any
		if jerr := json.Unmarshal(line, &m); jerr != nil || m == nil {
			t.Fatalf("%q: read as %d fields, but encoding/json says %v", line, len(fs), jerr)
		}
		tier, _, _, derr := decision(fs, 3)
		if derr != nil {
			return
		}
		if x, ok := m["tier"].(float64); !ok || int(x) != tier {
			t.Fatalf("%q: tier %d, encoding/json %v", line, tier, m["tier"])
		}
	})
}
