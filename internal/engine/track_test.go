package engine

import "testing"

// runTracked is RunDevices with counted views tracked (track.go) or
// counted at every decision, whatever the tier count.
func runTracked(cfg *Config, devs []Device, track bool) (*Result, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	s, err := newSim(cfg, devs, nil)
	if err != nil {
		return nil, err
	}
	s.setTrack(track)
	if err := s.loop(); err != nil {
		return nil, err
	}
	return s.res, nil
}

var _ = testing.Short
