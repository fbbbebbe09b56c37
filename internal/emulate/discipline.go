package emulate

import (
	"fmt"

	"github.com/offload-sim/offload/internal/engine"
)

// simulatorOnly refuses a scenario the tier servers cannot honour
// faithfully: a server is c workers behind one FIFO queue, so a PS,
// SRPT or priority tier (whose order depends on the remaining work or a
// class the requests do not carry), task classes and patience are the
// simulator's alone. A buffer is honoured: it is the queue limit.
func simulatorOnly(cfg *engine.Config) error {
	for i := range cfg.Tiers {
		if d := cfg.Tiers[i].Discipline; d != engine.FCFS {
			return fmt.Errorf("tier %s: discipline %s is simulator-only: a tier server is one FIFO queue", cfg.Tiers[i].Name, d)
		}
	}
	if len(cfg.Classes) > 0 {
		return fmt.Errorf("classes are simulator-only: the requests carry no class")
	}
	if cfg.Patience.Mean() > 0 {
		return fmt.Errorf("patience is simulator-only: a client does not leave a tier server's queue")
	}
	return nil
}

// queueLimit is a tier server's queue limit for the tier's buffer: the
// tasks it may hold beyond its servers (−1: none; 0: no buffer, the
// server's default).
func queueLimit(t *engine.TierConfig) int {
	switch {
	case t.Buffer == 0:
		return 0
	case t.Buffer == t.Servers:
		return -1
	}
	return t.Buffer - t.Servers
}
