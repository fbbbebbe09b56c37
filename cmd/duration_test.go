package cmd

import (
	"testing"
	"time"

	"github.com/spf13/pflag"
)

// TestDurationFlags: every duration flag takes a Go duration or a plain
// number of seconds, and refuses anything else.
func TestDurationFlags(t *testing.T) {
	fl := pflag.NewFlagSet("t", pflag.ContinueOnError)
	var d time.Duration
	var w float64
	durationVar(fl, &d, "duration", 10*time.Second, "")
	secondsVar(fl, &w, "window", 5, "")
	if d != 10*time.Second || w != 5 || fl.Lookup("window").DefValue != "5s" {
		t.Fatalf("defaults %v, %v (shown %q)", d, w, fl.Lookup("window").DefValue)
	}
	for _, tc := range []struct {
		arg  string
		want time.Duration
	}{{"30s", 30 * time.Second}, {"30", 30 * time.Second}, {"0.25", 250 * time.Millisecond}, {"1m30s", 90 * time.Second}, {"500ms", 500 * time.Millisecond}} {
		if err := fl.Set("duration", tc.arg); err != nil || d != tc.want {
			t.Errorf("--duration %s: %v, %v; want %v", tc.arg, d, err, tc.want)
		}
		if err := fl.Set("window", tc.arg); err != nil || w != tc.want.Seconds() {
			t.Errorf("--window %s: %v, %v; want %v s", tc.arg, w, err, tc.want.Seconds())
		}
	}
	for _, bad := range []string{"", "abc", "5 s", "NaN", "Inf", "1e300"} {
		if err := fl.Set("duration", bad); err == nil {
			t.Errorf("--duration %q accepted (%v)", bad, d)
		}
	}
}
