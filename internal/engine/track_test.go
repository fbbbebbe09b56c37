package engine

import (
	"testing"
	"unsafe"
)

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

// TestDeviceLayout: a device is a whole number of cache lines, so that
// each in sim.devs starts on one, and what every decision reads of it
// (its policy, source, map, flags, listeners and the view's instant,
// task, states and data) lies in its first four.
func TestDeviceLayout(t *testing.T) {
	var d device
	if size := unsafe.Sizeof(d); size%64 != 0 {
		t.Errorf("a device is %d bytes, not a multiple of 64", size)
	}
	v := unsafe.Offsetof(d.view)
	for name, end := range map[string]uintptr{
		"pol": unsafe.Offsetof(d.pol) + unsafe.Sizeof(d.pol), "src": unsafe.Offsetof(d.src) + 8,
		"phys": unsafe.Offsetof(d.phys) + 24, "idle": unsafe.Offsetof(d.idle) + 1,
		"observers": unsafe.Offsetof(d.observers) + 24, "shadows": unsafe.Offsetof(d.shadows) + 24,
		"view.States": v + unsafe.Offsetof(d.view.States) + 24, "view.Data": v + unsafe.Offsetof(d.view.Data) + 8,
	} {
		if end > 256 {
			t.Errorf("device.%s ends at byte %d, past the first four lines", name, end)
		}
	}
}
