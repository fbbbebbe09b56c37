package runner

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"

	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/scenario"
	"github.com/offload-sim/offload/internal/store"
)

// traceHeader is the per-task CSV of --trace; times in seconds, size in work units.
const traceHeader = "id,arrival_s,size,tier,delay_s,wait_s,service_s,latency_s,measured\n"

// traceSink opens traces/<param>=<value>_<policy>_<replicate>.csv (without
// a sweep, traces/<policy>_<replicate>.csv) in the folder for each run. Each file is written under a temporary name and renamed when the
// run ends, so a trace on disk is always complete; a run that failed or was
// interrupted leaves none.
func traceSink(d *store.Dir, plan *experiment.Plan) func(experiment.Job) (func(*engine.TaskRecord), func(error) error, error) {
	tiers := plan.Tiers()
	return func(j experiment.Job) (func(*engine.TaskRecord), func(error) error, error) {
		name := traceName(plan.Cells[j.Cell], j.Policy, j.Seed)
		f, err := d.Create(name)
		if err != nil {
			return nil, nil, err
		}
		w := bufio.NewWriterSize(f, 1<<16)
		var werr error
		_, werr = w.WriteString(traceHeader)
		buf := make([]byte, 0, 256)
		sink := func(r *engine.TaskRecord) {
			if werr != nil {
				return
			}
			buf = appendTrace(buf[:0], r, tiers)
			_, werr = w.Write(buf)
		}
		closer := func(runErr error) error {
			err := werr
			if err == nil {
				err = w.Flush()
			}
			if err != nil || runErr != nil {
				_ = f.Abort()
				if err != nil {
					return fmt.Errorf("trace %s: %w", name, err)
				}
				return nil
			}
			return f.Close()
		}
		return sink, closer, nil
	}
}

// appendTrace appends one trace row to buf.
func appendTrace(buf []byte, r *engine.TaskRecord, tiers []string) []byte {
	buf = strconv.AppendInt(buf, int64(r.ID), 10)
	for _, x := range []float64{r.Arrival, r.Size} {
		buf = append(buf, ',')
		buf = strconv.AppendFloat(buf, x, 'g', -1, 64)
	}
	buf = append(buf, ',')
	buf = append(buf, tiers[r.Tier]...)
	for _, x := range []float64{r.Delay, r.Wait, r.Service, r.Latency} {
		buf = append(buf, ',')
		buf = strconv.AppendFloat(buf, x, 'g', -1, 64)
	}
	buf = append(buf, ',')
	buf = strconv.AppendBool(buf, r.Measured)
	return append(buf, '\n')
}

// traceName is a run's trace file: the swept parameter and value, so that a
// Reader knows the cell without runs.csv (arrivals.rate=60_hybrid_0.csv),
// then the policy's label and the replicate. Characters outside
// [A-Za-z0-9._-] of the parameter become "_" (a path such as tiers[1].servers
// stays one file name).
func traceName(c scenario.Cell, policy string, rep int) string {
	if c.Param == "" {
		return fmt.Sprintf("traces/%s_%d.csv", policy, rep)
	}
	param := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, c.Param)
	return fmt.Sprintf("traces/%s=%s_%s_%d.csv", param, strconv.FormatFloat(c.Value, 'g', -1, 64), policy, rep)
}
