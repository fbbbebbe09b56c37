package extpolicy

import (
	"encoding/json"
	"strconv"

	"github.com/offload-sim/offload/internal/dispatch"
)

// Version is the protocol version of docs/policy-protocol.md, sent in the
// start message. A change of any message's shape is a new version.
const Version = 1

// Run is a run's identity, in the start message: which cell, replicate
// and device of which experiment the program serves.
type Run struct {
	Experiment string  `json:"experiment"`
	Label      string  `json:"label"` // the policy entry's label
	Cell       int     `json:"cell"`  // the sweep cell's index, from 0
	Param      string  `json:"param"` // the swept parameter; "" without a sweep
	Value      float64 `json:"value"` // its value in this cell; NaN without a sweep, sent as null
	Replicate  int     `json:"replicate"`
	Device     int     `json:"device"`  // the dispatcher this process serves, from 0
	Devices    int     `json:"devices"` // dispatchers in the run, one process each
}

// Observation describes what the program's views show (docs/design.md
// §1.9), in the start message.
type Observation struct {
	Model     string  `json:"model"`      // fresh, periodic, individual or delayed
	Period    float64 `json:"period"`     // s: periodic's refresh period, individual's mean repost gap
	Phase     float64 `json:"phase"`      // s: periodic's first refresh
	DelayMean float64 `json:"delay_mean"` // s: delayed's mean observation age
	DelayCV   float64 `json:"delay_cv"`   // delayed: the age's coefficient of variation
	CountOwn  bool    `json:"count_own"`  // own sends since the observation are counted
	Noise     float64 `json:"noise"`      // CV of the lognormal factor on each observed count
}

// startTier is a tier as the start message describes it.
type startTier struct {
	Name      string  `json:"name"`
	Kind      string  `json:"kind"`
	Servers   int     `json:"servers"`
	Speed     float64 `json:"speed"`
	Mu        float64 `json:"mu"`
	MeanDelay float64 `json:"mean_delay"`
	Cs2       float64 `json:"cs2"`
}

type startMsg struct {
	Type        string      `json:"type"`
	Version     int         `json:"version"`
	Seed        uint64      `json:"seed"`
	Run         startRun    `json:"run"`
	Observation Observation `json:"observation"`
	Tiers       []startTier `json:"tiers"`
}

// startRun is Run with its value null when there is none (JSON has no NaN).
type startRun struct {
	Run
	Value *float64 `json:"value"`
}

// appendStart appends the start message line. It fails only on a
// non-finite number, which JSON cannot spell and validated tiers never hold.
func appendStart(b []byte, tiers []dispatch.Tier, seed uint64, run Run, obs Observation) ([]byte, error) {
	m := startMsg{Type: "start", Version: Version, Seed: seed, Run: startRun{Run: run}, Observation: obs}
	if v := run.Value; v-v == 0 {
		m.Run.Value = &v
	}
	for _, t := range tiers {
		m.Tiers = append(m.Tiers, startTier{Name: t.Name, Kind: t.Kind.String(), Servers: t.Servers, Speed: t.Speed,
			Mu: t.Mu, MeanDelay: t.MeanDelay, Cs2: t.Cs2})
	}
	j, err := json.Marshal(m)
	if err != nil {
		return b, err
	}
	return append(append(b, j...), '\n'), nil
}

// appendDecide appends the decide message line for the view's task. It
// allocates nothing once b has grown to a message's size.
func appendDecide(b []byte, v *dispatch.View) []byte {
	b = append(b, `{"type":"decide","task":`...)
	b = strconv.AppendInt(b, int64(v.Task), 10)
	b = append(b, `,"time":`...)
	b = appendNum(b, v.Now)
	b = append(b, `,"tiers":[`...)
	for i, s := range v.States {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"queued":`...)
		b = strconv.AppendInt(b, int64(s.Queued), 10)
		b = append(b, `,"busy":`...)
		b = strconv.AppendInt(b, int64(s.Busy), 10)
		b = append(b, `,"in_transit":`...)
		b = strconv.AppendInt(b, int64(s.InTransit), 10)
		b = append(b, `,"age":`...)
		b = appendNum(b, v.Age(i))
		b = append(b, '}')
	}
	b = append(b, ']')
	if v.Data > 0 {
		b = append(b, `,"data":`...)
		b = appendNum(b, v.Data)
	}
	return append(b, "}\n"...)
}

// appendDone appends the done message line of a completion.
func appendDone(b []byte, c *dispatch.Completion) []byte {
	b = append(b, `{"type":"done","task":`...)
	b = strconv.AppendInt(b, int64(c.Task), 10)
	b = append(b, `,"tier":`...)
	b = strconv.AppendInt(b, int64(c.Tier), 10)
	for _, kv := range [...]struct {
		k string
		v float64
	}{{`,"time":`, c.Now}, {`,"latency":`, c.Latency}, {`,"delay":`, c.Delay}, {`,"wait":`, c.Wait}, {`,"service":`, c.Service}} {
		b = append(b, kv.k...)
		b = appendNum(b, kv.v)
	}
	if c.Outcome != dispatch.Completed { // a completion's line keeps its bytes
		b = append(b, `,"outcome":"`...)
		b = append(b, c.Outcome.String()...)
		b = append(b, '"')
		if c.Outcome == dispatch.Moved {
			b = append(b, `,"from":`...)
			b = strconv.AppendInt(b, int64(c.From), 10)
		}
	}
	return append(b, "}\n"...)
}

// endMsg is the end message line.
const endMsg = `{"type":"end"}` + "\n"

// appendNum appends a float as a JSON number: the shortest form that reads
// back exactly. Views and outcomes hold finite numbers only; a non-finite
// one (which JSON cannot spell) is written as null rather than break the line.
func appendNum(b []byte, x float64) []byte {
	if x-x != 0 {
		return append(b, "null"...)
	}
	return strconv.AppendFloat(b, x, 'g', -1, 64)
}
