package cmd

import (
	"errors"
	"math"
	"strconv"
	"time"

	"github.com/spf13/pflag"
)

// One convention for durations in flags: a Go duration ("30s", "1m30s",
// "500ms") everywhere, and a plain number still accepted as seconds ("30",
// "0.5"), whether the flag holds wall-clock time (emulate) or model time
// (burst --window).

// errDuration says what a duration flag accepts.
var errDuration = errors.New("want a duration such as 30s, 500ms or 1m30s, or a number of seconds")

// parseSeconds reads a duration flag's value in seconds.
func parseSeconds(s string) (float64, error) {
	if x, err := strconv.ParseFloat(s, 64); err == nil {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, errDuration
		}
		return x, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, errDuration
	}
	return d.Seconds(), nil
}

// durationValue is a time.Duration flag under that convention.
type durationValue struct{ d *time.Duration }

func (v durationValue) Set(s string) error {
	x, err := parseSeconds(s)
	if err != nil {
		return err
	}
	if math.Abs(x) > float64(math.MaxInt64)/1e9 {
		return errors.New("out of range")
	}
	*v.d = time.Duration(math.Round(x * 1e9))
	return nil
}
func (v durationValue) Type() string   { return "duration" }
func (v durationValue) String() string { return v.d.String() }

// durationVar defines a time.Duration flag that also takes plain seconds.
func durationVar(fl *pflag.FlagSet, p *time.Duration, name string, def time.Duration, usage string) {
	*p = def
	fl.Var(durationValue{p}, name, usage)
}

// secondsValue is a float64 seconds flag under that convention.
type secondsValue struct{ x *float64 }

func (v secondsValue) Set(s string) error {
	x, err := parseSeconds(s)
	if err != nil {
		return err
	}
	*v.x = x
	return nil
}
func (v secondsValue) Type() string   { return "duration" }
func (v secondsValue) String() string { return strconv.FormatFloat(*v.x, 'g', -1, 64) + "s" }

// secondsVar defines a float64 flag of seconds that also takes a Go
// duration.
func secondsVar(fl *pflag.FlagSet, p *float64, name string, def float64, usage string) {
	*p = def
	fl.Var(secondsValue{p}, name, usage)
}
