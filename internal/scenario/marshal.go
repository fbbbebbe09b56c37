package scenario

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/offload-sim/offload/internal/schema"
)

// Marshal returns the fully resolved scenario as YAML: every default written
// out, fields in declaration order, two-space indent. The bytes depend only
// on the scenario's values, and Parse of them gives back an equal scenario
// (for a valid one: an invalid one may not parse). Fields that are zero and
// optional (duration in tasks mode, a tier's absent delay, no sweep) are left
// out.
func (s *Scenario) Marshal() ([]byte, error) {
	b, err := schema.Encode(s)
	if err != nil {
		return nil, fmt.Errorf("marshal scenario: %w", err)
	}
	return b, nil
}

// Hash is the hex SHA-256 of Marshal's bytes, followed by the digests of
// the data attached from files (a trace's rows, an empirical law's values):
// two scenarios have the same hash exactly when they resolve to the same
// values and replay the same data. It is "" only if the scenario cannot be
// marshalled, which a Scenario built from this package's types cannot
// cause.
func (s *Scenario) Hash() string {
	b, err := s.Marshal()
	if err != nil {
		return ""
	}
	h := sha256.New()
	h.Write(b)
	if d := s.Trace.Digest(); d != "" {
		fmt.Fprintf(h, "# trace.file rows: sha256 %s\n", d)
	}
	for _, a := range []struct{ field, digest string }{
		{"workload.size", s.Workload.Size.Digest()}, {"workload.data", s.Workload.Data.Digest()}, {"workload.reply", s.Workload.Reply.Digest()},
	} {
		if a.digest != "" {
			fmt.Fprintf(h, "# %s.file values: sha256 %s\n", a.field, a.digest)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}
