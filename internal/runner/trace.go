package runner

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/experiment"
)

// traceHeader is the per-task CSV of --trace; times in seconds, size in work units.
const traceHeader = "id,arrival_s,size,tier,delay_s,wait_s,service_s,latency_s,measured\n"

// traceSink opens DIR/traces/<cell>_<policy>_<replicate>.csv for each run.
// Each file is written under a temporary name and renamed when the run ends,
// so a trace on disk is always complete.
func traceSink(dir string, plan *experiment.Plan) func(experiment.Job) (func(*engine.TaskRecord), func(error) error, error) {
	tiers := plan.Tiers()
	return func(j experiment.Job) (func(*engine.TaskRecord), func(error) error, error) {
		tdir := filepath.Join(dir, "traces")
		if err := os.MkdirAll(tdir, 0o755); err != nil {
			return nil, nil, err
		}
		name := fmt.Sprintf("cell%d_%s_%d.csv", j.Cell, j.Policy, j.Seed)
		f, err := os.CreateTemp(tdir, "."+name+".tmp-*")
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
			buf = strconv.AppendInt(buf[:0], int64(r.ID), 10)
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
			buf = append(buf, '\n')
			_, werr = w.Write(buf)
		}
		// A run that failed or was interrupted leaves no trace: a file under
		// its final name is always a whole run.
		closer := func(runErr error) error {
			err := werr
			if err == nil {
				err = w.Flush()
			}
			if err == nil {
				err = f.Chmod(0o644)
			}
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil || runErr != nil {
				_ = os.Remove(f.Name())
				if err != nil {
					return fmt.Errorf("trace %s: %w", name, err)
				}
				return nil
			}
			return os.Rename(f.Name(), filepath.Join(tdir, name))
		}
		return sink, closer, nil
	}
}
