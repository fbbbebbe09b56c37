package scenario

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"gopkg.in/yaml.v3"
)

// Marshal returns the fully resolved scenario as YAML: every default written
// out, fields in declaration order, two-space indent. The bytes depend only
// on the scenario's values, and Parse of them gives back an equal scenario
// (for a valid one: an invalid one may not parse). Fields that are zero and
// optional (duration in tasks mode, a tier's absent delay, no sweep) are left
// out.
func (s *Scenario) Marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(s); err != nil {
		return nil, fmt.Errorf("marshal scenario: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("marshal scenario: %w", err)
	}
	return b.Bytes(), nil
}

// Hash is the hex SHA-256 of Marshal's bytes: two scenarios have the same
// hash exactly when they resolve to the same values. It is "" only if the
// scenario cannot be marshalled, which a Scenario built from this package's
// types cannot cause.
func (s *Scenario) Hash() string {
	b, err := s.Marshal()
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
