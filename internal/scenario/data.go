package scenario

import (
	"strconv"

	"github.com/offload-sim/offload/internal/scenario/load"
)

// Data is the law of a task's data in bits, declared with its checks in
// package load.
type Data = load.Data

// The bounds of data laws and links, declared in package load.
const (
	MaxData, MinData, MaxDataFactor = load.MaxData, load.MinData, load.MaxDataFactor
	MinBandwidth, MaxBandwidth      = load.MinBandwidth, load.MaxBandwidth
)

// AttachData gives an empirical workload.data (which "data") or
// workload.reply ("reply") the values of its column, read by the caller
// from its file, and validates again.
func (s *Scenario) AttachData(which string, values []float64) error {
	d := &s.Workload.Data
	if which == "reply" {
		d = &s.Workload.Reply
	}
	return s.attach("workload."+which, d.Dist, d.Attach, values)
}

// data checks workload.data and workload.reply and the tiers' bandwidths.
func (c *checker) data() {
	w := c.s.Workload
	load.CheckData(&c.Checker, w)
	for i, t := range c.s.Tiers {
		b := t.Delay.Bandwidth
		if b == 0 {
			continue
		}
		at := path("tiers", strconv.Itoa(i), "delay", "bandwidth")
		if !c.Num(at, b, b > 0, "must be > 0 (bit/s), or leave it out for no limit") {
			continue
		}
		c.Within(at, b, MinBandwidth, MaxBandwidth, " bit/s")
		switch {
		case t.Kind == "local":
			c.Add(at, "%s is not allowed: a local tier runs on the device, with no link to send data over", fmtNum(b))
		case !w.Data.Given():
			c.Add(at, "%s is not allowed without workload.data: the tasks carry no data to send (give workload.data: {dist, mean} bits or {proportional: bits per work unit})", fmtNum(b))
		}
	}
	if o := c.s.Observation; o != nil && o.Delay != nil && o.Delay.Bandwidth != 0 {
		c.Add(path("observation", "delay", "bandwidth"), "%s is not allowed: an observation's age has no bandwidth (only a tier's delay does)", fmtNum(o.Delay.Bandwidth))
	}
}
