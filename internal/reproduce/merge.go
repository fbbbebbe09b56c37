package reproduce

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/offload-sim/offload/internal/runner"
)

// Merge combines shard folders (each written by --shard k/K of one plan,
// on any machines) into opts.Dir, writing exactly the files a single run of
// the plan writes (runner.ReadShardsFor says what it checks first). For the
// shards of a reproduce it merges each experiment's folder and writes
// claims.md.
func Merge(ctx context.Context, dirs []string, opts runner.Options) error {
	sds, err := runner.ReadShardsFor(dirs, opts.Dir)
	if err != nil {
		return err
	}
	first := sds[0]
	if first.SpecName() == Name {
		return mergeReproduce(ctx, sds, opts)
	}
	spec, ok := specNamed(first.SpecName())
	if !ok {
		return runner.BadInputf("merge: %s: unknown experiment %q", first.Dir(), first.SpecName())
	}
	job, err := runner.PrepareMerge(ctx, sds, spec)
	if err != nil {
		return err
	}
	_, err = job.Write(opts)
	return err
}

// mergeReproduce merges the shard folders of a reproduce: every
// experiment's subfolder is merged as an experiment's shards are (all of
// them checked before anything is written), then claims.md is judged on the
// merged runs. The emulation (claim 6) cannot be sharded, so it is NOT RUN.
func mergeReproduce(ctx context.Context, all []runner.Shard, opts runner.Options) error {
	roots, err := runner.CheckShards(ctx, all, nil)
	if err != nil {
		return err
	}
	jobs, err := mergeJobs(ctx, all, roots[0])
	if err != nil {
		return err
	}
	first := roots[0]
	d, err := runner.OpenFolder(opts.Dir, first.Manifest().ScenarioHash, Name, opts.Force, false, []string{"claims.md"})
	if err != nil {
		return err
	}
	defer d.Close()
	m := runner.MergedManifest(roots, Name, opts)
	if err := d.WriteManifest(*m); err != nil {
		return err
	}
	got := map[string]*runner.Result{}
	for _, job := range jobs {
		o := opts
		o.Dir = filepath.Join(opts.Dir, job.Name())
		o.Out = io.Discard
		r, err := job.Write(o)
		if err != nil {
			return fmt.Errorf("%s: %w", job.Name(), err)
		}
		got[job.Name()] = r
		fmt.Fprintln(opts.Out, "wrote", o.Dir)
	}
	if _, err := writeClaims(d, first.Scale(), first.Version(), judgeClaims(got), staleSection(got), opts.Out); err != nil {
		return err
	}
	return runner.WriteComplete(d, m)
}

// mergeJobs checks and reads every experiment's shards of a reproduction.
// A root given twice (a retried shard) is compared, file by file, in each
// experiment's merge; the first of each shard (root) stands for it.
func mergeJobs(ctx context.Context, all []runner.Shard, root runner.Shard) ([]*runner.MergeJob, error) {
	var jobs []*runner.MergeJob
	for _, st := range steps() {
		name := st.exp.Name
		if st.optional && !isDir(filepath.Join(all[0].Dir(), name)) {
			continue // shards of a reproduction from before it was added
		}
		var dirs []string
		for _, r := range all {
			dirs = append(dirs, filepath.Join(r.Dir(), name))
		}
		sds, err := runner.ReadShards(dirs)
		if err != nil {
			return nil, err
		}
		for _, s := range sds {
			if s.SpecName() != name || s.Count() != root.Count() {
				return nil, runner.BadInputf("merge: %s is not shard %s of %s's %s", s.Dir(), root, Name, name)
			}
		}
		job, err := runner.PrepareMerge(ctx, sds, st.exp.Spec)
		if err != nil {
			return nil, err
		}
		jobs = append(jobs, job)
	}
	return jobs, nil
}

// isDir reports whether path is a directory.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
