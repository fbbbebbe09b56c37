package runner

import (
	"bufio"
	"errors"
	"os"
	"strconv"
	"strings"
)

// MachineMemory is this machine's physical memory in bytes (MemTotal of
// /proc/meminfo), or 0 when it cannot be read (then no limit applies).
func MachineMemory() float64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			if err == nil {
				return kb * 1024
			}
		}
	}
	return 0
}

// ParseBytes reads a byte count with an optional binary unit: 512MiB, 8GiB,
// 1.5G, 1000000.
func ParseBytes(s string) (float64, error) {
	units := []struct {
		suffix string
		mult   float64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40}, {"B", 1}}
	mult := 1.0
	for _, u := range units {
		if rest, ok := strings.CutSuffix(s, u.suffix); ok {
			s, mult = rest, u.mult
			break
		}
	}
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || !(x > 0) || x*mult > 1<<62 {
		return 0, errors.New("want a positive size such as 8GiB or 512MiB")
	}
	return x * mult, nil
}
