package scenario

import (
	"strconv"

	"github.com/offload-sim/offload/internal/scenario/tier"
)

// The types of a tier's capacity over time, declared with their checks in
// package tier.
type (
	// Episode is a span of a tier at another speed, or down.
	Episode = tier.Episode
	// Recurring is a tier's random slow-downs or failures.
	Recurring = tier.Recurring
)

// MaxRetries bounds retries: each is another decision of the policy.
const MaxRetries = 100

// MaxEpisodes bounds a tier's fixed episodes (declared in package tier).
const MaxEpisodes = tier.MaxEpisodes

// HasDynamics reports whether the scenario uses slow-downs, failures,
// timeouts or retries: only then does runs.csv carry lost_share,
// timeout_share, retry_share and goodput.
func (s *Scenario) HasDynamics() bool {
	if s.Timeout > 0 || s.Retries > 0 || s.CancelOnTimeout {
		return true
	}
	for _, t := range s.Tiers {
		if len(t.Episodes) > 0 || t.Slowdowns != nil || t.Failures != nil {
			return true
		}
	}
	return false
}

// dynamics checks the dispatcher's timeout and retries and the tiers'
// episodes and laws.
func (c *checker) dynamics() {
	s := c.s
	c.Num(path("timeout"), s.Timeout, s.Timeout >= 0, "must be > 0 (s, how long a dispatcher waits for an attempt), or leave it out")
	c.Upper(path("timeout"), s.Timeout, MaxSpan, " s")
	c.Integer(path("retries"), s.Retries, s.Retries >= 0 && s.Retries <= MaxRetries, "must be in [0, "+strconv.Itoa(MaxRetries)+"] (sends of a task after its first)")
	if s.CancelOnTimeout && !(s.Timeout > 0) {
		c.Add(path("cancel_on_timeout"), "true is not allowed without timeout: nothing times out")
	}
	tier.CheckDynamics(&c.Checker, s.Tiers)
}
