package scenario

import (
	"slices"
	"strings"
)

// Observation is a dispatcher's view of the tiers (docs/design.md §1.9).
type Observation struct {
	// Model is fresh, periodic (a board refreshed at phase + k·period),
	// individual (each tier reposts at exponential epochs of mean period)
	// or delayed (each tier's state as it was delay ago); omitted: fresh.
	Model  string  `yaml:"model"`
	Period float64 `yaml:"period,omitempty" label:"period T" unit:"s"` // s; periodic 0 is fresh
	Phase  float64 `yaml:"phase,omitempty" unit:"s"`                   // s, periodic: first refresh, in [0, period)
	Delay  *Delay  `yaml:"delay,omitempty"`                            // delayed: the observation's age {mean, cv}
	// CountOwn adds the tasks this dispatcher sent a tier since the
	// observation to its observed count; omitted: true.
	CountOwn *bool `yaml:"count_own,omitempty"`
	// Noise is the coefficient of variation of a lognormal factor of mean
	// 1 on each observed count; 0: exact.
	Noise float64 `yaml:"noise,omitempty" label:"noise CV"`
}

// resolveObservation writes out an observation block's defaults, so that
// the resolved scenario shows them: count_own true, and the fresh model when
// the block names none (a block of noise alone, say). Parse calls it, and
// so does each sweep cell, whose swept field may have made the block.
func (s *Scenario) resolveObservation() {
	o := s.Observation
	if o == nil {
		return
	}
	if o.CountOwn == nil {
		yes := true
		o.CountOwn = &yes
	}
	if o.Model == "" {
		o.Model = "fresh"
	}
}

// ObservationModels lists the observation models, in the order messages
// give them.
func ObservationModels() []string { return []string{"fresh", "periodic", "individual", "delayed"} }

// MaxDevices bounds devices: each is an arrival stream, a policy and a view
// that every decision scans.
const MaxDevices = 1000

// DeviceCount is the number of dispatchers: Devices, or 1 when omitted.
func (s *Scenario) DeviceCount() int { return max(s.Devices, 1) }

func (c *checker) observation() {
	s := c.s
	c.Integer(path("devices"), s.Devices, s.Devices >= 0, "must be ≥ 1 (dispatchers; omit it for one)")
	c.Upper(path("devices"), float64(s.Devices), MaxDevices, " (dispatchers)")
	o := s.Observation
	if o == nil {
		return
	}
	at := func(f ...string) []string { return sub(path("observation"), f...) }
	if !slices.Contains(ObservationModels(), o.Model) {
		c.Add(at("model"), "%q is not allowed: must be one of %s", o.Model, strings.Join(ObservationModels(), ", "))
		return
	}
	c.observationPeriod(o, at)
	c.observationDelay(o, at)
	if c.Num(at("noise"), o.Noise, o.Noise >= 0, "must be ≥ 0 (coefficient of variation; 0: exact counts)") {
		c.Upper(at("noise"), o.Noise, MaxCV, "")
	}
}

// observationPeriod checks the period and phase of the models that take
// them, and refuses them elsewhere.
func (c *checker) observationPeriod(o *Observation, at func(f ...string) []string) {
	usesPeriod := o.Model == "periodic" || o.Model == "individual"
	switch {
	case o.Model == "periodic":
		if c.Num(at("period"), o.Period, o.Period >= 0, "must be ≥ 0 (s; 0 is a fresh view)") {
			c.Upper(at("period"), o.Period, MaxSpan, " s")
		}
		if c.Num(at("phase"), o.Phase, o.Phase >= 0 && (o.Phase < o.Period || o.Period == 0 && o.Phase == 0), "must be in [0, period)") {
			c.Upper(at("phase"), o.Phase, MaxSpan, " s")
		}
	case o.Model == "individual":
		if c.Num(at("period"), o.Period, o.Period > 0, "must be > 0 (s: the mean time between a tier's reposts)") {
			c.Upper(at("period"), o.Period, MaxSpan, " s")
			c.Lower(at("period"), o.Period, MinBurstTime, " s")
		}
	}
	if !usesPeriod && o.Period != 0 {
		also := ""
		if o.Model == "fresh" {
			also = "; fresh is the model when none is given"
		}
		c.Add(at("period"), "%s is not allowed: %s takes no period (periodic and individual do%s)", fmtNum(o.Period), o.Model, also)
	}
	if o.Model != "periodic" && o.Phase != 0 {
		c.Add(at("phase"), "%s is not allowed: only periodic takes a phase", fmtNum(o.Phase))
	}
}

// observationDelay checks the delayed model's age {mean, cv}, and refuses
// it elsewhere.
func (c *checker) observationDelay(o *Observation, at func(f ...string) []string) {
	switch {
	case o.Model == "delayed" && o.Delay == nil:
		c.Add(at("delay"), "none given: delayed needs delay: {mean, cv} (s)")
	case o.Model == "delayed":
		if c.Num(at("delay", "mean"), o.Delay.Mean, o.Delay.Mean > 0, "must be > 0 (s)") {
			c.Upper(at("delay", "mean"), o.Delay.Mean, MaxDelay, " s")
		}
		if c.Num(at("delay", "cv"), o.Delay.CV, o.Delay.CV >= 0, "must be ≥ 0 (coefficient of variation)") {
			c.Upper(at("delay", "cv"), o.Delay.CV, MaxCV, "")
		}
	case o.Delay != nil:
		c.Add(at("delay"), "is not allowed: %s takes no delay (only delayed does)", o.Model)
	}
}
