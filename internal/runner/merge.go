package runner

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/scenario"
	"github.com/offload-sim/offload/internal/store"
)

// ArrayScript is the Slurm job-array script (deploy/slurm) that merge's
// message names when shards are missing, so that the user reruns just them.
const ArrayScript = "deploy/slurm/offload-array.sbatch"

// shardDir is one shard folder as merge reads it.
type shardDir struct {
	dir  string
	m    Manifest
	info shardInfo
	sum  string // SHA-256 of its manifest.json, recorded in the merged manifest
}

func (s shardDir) shard() experiment.Shard {
	return experiment.Shard{Index: s.info.Shard.K, Count: s.info.Shard.Count}
}

// Merge combines shard folders (each written by --shard k/K of one plan,
// on any machines) into opts.Dir, writing exactly the files a single run of
// the plan writes (manifest timestamps aside): runs.csv, the sidecars,
// summary.csv, the plots, the experiment's own files. For the shards of a
// reproduce it merges each experiment's folder and writes claims.md.
//
// Before anything is written it checks that every shard is complete; that
// scenario hash, tool revision, master seed, replicates, K and the
// experiment's flags agree; that shards 0 … K−1 are all there (the message
// names the missing ones, and the sbatch line that reruns just them); that
// each shard holds exactly its runs of the plan rebuilt from scenario.yaml;
// and that a shard given twice (a retry) has the same bytes both times.
// Every failed check is bad input with nothing written, and so is an
// output folder that is one of the shards. Reading ends once ctx is done.
func Merge(ctx context.Context, dirs []string, opts Options) error {
	for _, dir := range dirs {
		if same, _ := sameDir(opts.Dir, dir); same {
			return BadInputf("merge: -o %s is the shard folder %s: merging into it would replace the shard's own files; give -o a new folder", opts.Dir, dir)
		}
	}
	sds, err := readShards(dirs)
	if err != nil {
		return err
	}
	if sds[0].info.Spec == reproduceName {
		return mergeReproduce(ctx, sds, opts)
	}
	job, err := prepareMerge(ctx, sds)
	if err != nil {
		return err
	}
	_, err = job.write(opts)
	return err
}

// readShards reads the shard manifests.
func readShards(dirs []string) ([]shardDir, error) {
	if len(dirs) == 0 {
		return nil, BadInputf("merge: no shard folders given")
	}
	var sds []shardDir
	for _, dir := range dirs {
		m, b, err := store.ReadManifest(dir)
		var big *store.TooLargeError
		switch {
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
			return nil, BadInputf("merge: %s is not a results folder: %w", dir, err)
		case errors.Is(err, store.ErrNotRegular) || errors.As(err, &big):
			return nil, BadInputf("merge: %s: %w", dir, err)
		case err != nil:
			return nil, BadInputf("merge: %s: manifest.json is not offload's (%v)", dir, err)
		}
		info, sharded, err := readShardInfo(m)
		if err != nil {
			return nil, BadInputf("merge: %s: manifest.json: %w", dir, err)
		}
		if !sharded {
			return nil, BadInputf("merge: %s holds a whole run, not a shard (it was not run with --shard)", dir)
		}
		sum := sha256.Sum256(b)
		sds = append(sds, shardDir{dir: dir, m: m, info: info, sum: hex.EncodeToString(sum[:])})
	}
	return sds, nil
}

// checkShards runs the checks on the manifests alone (agreement,
// completeness, duplicates, missing shards) and returns one folder per
// shard, in shard order. runFiles, if given, are the files a duplicated
// shard must repeat byte for byte.
func checkShards(ctx context.Context, sds []shardDir, runFiles []string) ([]shardDir, error) {
	first := sds[0]
	K := first.info.Shard.Count
	for _, s := range sds {
		if err := s.shard().Check(); err != nil || s.shard().Whole() {
			return nil, BadInputf("merge: %s: manifest names shard %d/%d", s.dir, s.info.Shard.K, s.info.Shard.Count)
		}
	}
	for _, s := range sds[1:] {
		if s.m.ScenarioHash != first.m.ScenarioHash {
			return nil, BadInputf("merge: %s is a shard of another scenario (sha256 %.12s…) than %s (%.12s…): merge only the shards of one run",
				s.dir, s.m.ScenarioHash, first.dir, first.m.ScenarioHash)
		}
		for _, d := range []struct{ what, a, b string }{
			{"experiment", s.info.Spec + " " + s.m.Experiment, first.info.Spec + " " + first.m.Experiment},
			{"tool revision", s.m.Version, first.m.Version},
			{"master seed", strconv.FormatUint(s.m.Seed, 10), strconv.FormatUint(first.m.Seed, 10)},
			{"replicates", strconv.Itoa(s.m.Seeds), strconv.Itoa(first.m.Seeds)},
			{"shard count K", strconv.Itoa(s.info.Shard.Count), strconv.Itoa(K)},
			{"--time-decisions", strconv.FormatBool(s.m.TimeDecisions), strconv.FormatBool(first.m.TimeDecisions)},
			{"experiment flags", fmt.Sprintf("%+v", s.info.Args), fmt.Sprintf("%+v", first.info.Args)},
			{"plan size", strconv.Itoa(s.info.PlanRuns), strconv.Itoa(first.info.PlanRuns)},
			{"--scale", s.info.Scale, first.info.Scale},
		} {
			if d.a != d.b {
				return nil, BadInputf("merge: %s and %s disagree on the %s (%s against %s): merge only the shards of one run", s.dir, first.dir, d.what, d.a, d.b)
			}
		}
	}
	for _, s := range sds {
		if !s.m.Complete {
			return nil, BadInputf("merge: %s (shard %s) is incomplete, %d of %d runs done: rerun that shard with the same command and --resume into that folder",
				s.dir, s.shard(), s.m.RunsDone, s.m.Runs)
		}
	}
	byShard := make([]*shardDir, K)
	for i := range sds {
		s := &sds[i]
		k := s.info.Shard.K
		if prev := byShard[k]; prev != nil {
			for _, f := range runFiles {
				a, errA := readResult(ctx, filepath.Join(prev.dir, f))
				b, errB := readResult(ctx, filepath.Join(s.dir, f))
				if err := cmp.Or(errA, errB); errors.Is(err, ErrBadInput) || ctx.Err() != nil {
					return nil, err
				}
				if errA != nil || errB != nil || !bytes.Equal(a, b) {
					return nil, BadInputf("merge: shard %s is given twice, as %s and %s, and their %s differ: a retried shard may repeat runs only byte for byte; keep one of the two",
						s.shard(), prev.dir, s.dir, f)
				}
			}
			continue
		}
		byShard[k] = s
	}
	var missing, have []int
	for k, s := range byShard {
		if s == nil {
			missing = append(missing, k)
		} else {
			have = append(have, k)
		}
	}
	if len(missing) > 0 {
		return nil, BadInputf("merge: missing shards %s of %d (given: %s); rerun just them with\n  %s",
			intList(missing, ", "), K, intList(have, ", "), rerunLine(missing, K, *byShard[have[0]]))
	}
	out := make([]shardDir, K)
	for k, s := range byShard {
		out[k] = *s
	}
	return out, nil
}

// mergeJob is one experiment's merge, checked and ready to write.
type mergeJob struct {
	spec   Spec
	plan   *experiment.Plan
	args   Args
	side   *sidecar
	outs   []experiment.Outcome // job order
	shards []shardDir
	all    []shardDir // every folder given, duplicates included
}

// prepareMerge checks the shards of one experiment and reads their runs.
func prepareMerge(ctx context.Context, all []shardDir) (*mergeJob, error) {
	first := all[0]
	spec, ok := specNamed(first.info.Spec)
	if !ok {
		return nil, BadInputf("merge: %s: unknown experiment %q", first.dir, first.info.Spec)
	}
	var side *sidecar
	if spec.side != nil {
		side = spec.side(first.info.Args)
	}
	sds, err := checkShards(ctx, all, spec.runFiles(side))
	if err != nil {
		return nil, err
	}
	resolved, err := readResult(ctx, filepath.Join(first.dir, "scenario.yaml"))
	if err != nil {
		return nil, BadInputf("merge: %s: %w", first.dir, err)
	}
	for _, s := range sds {
		b, err := readResult(ctx, filepath.Join(s.dir, "scenario.yaml"))
		if errors.Is(err, ErrBadInput) || ctx.Err() != nil {
			return nil, err
		}
		if err != nil || !bytes.Equal(b, resolved) {
			return nil, BadInputf("merge: %s: scenario.yaml is missing or differs from %s's", s.dir, first.dir)
		}
	}
	sc, err := scenario.Parse(filepath.Join(first.dir, "scenario.yaml"), resolved, nil, experiment.Catalog())
	if err != nil {
		return nil, BadInputf("merge: %w", err)
	}
	if err := attachMergedTrace(sc, first.m.Command); err != nil {
		return nil, err
	}
	// After attaching: the hash covers the replayed data too.
	if h := sc.Hash(); h != first.m.ScenarioHash {
		return nil, BadInputf("merge: %s: scenario.yaml (with the data it replays) has sha256 %.12s…, its manifest says %.12s…", first.dir, h, first.m.ScenarioHash)
	}
	plan, err := experiment.NewPlan(first.m.Experiment, sc)
	if err != nil {
		return nil, BadInputf("merge: %s: %w", first.dir, err)
	}
	if spec.Prepare != nil {
		if err := spec.Prepare(plan, first.info.Args); err != nil {
			return nil, BadInputf("merge: %s: %w", first.dir, err)
		}
	}
	plan.TimeDecisions = first.m.TimeDecisions
	jobs := plan.Jobs()
	if len(jobs) != first.info.PlanRuns {
		return nil, BadInputf("merge: the scenario of %s expands to %d runs, its manifest says %d", first.dir, len(jobs), first.info.PlanRuns)
	}
	outs := make([]experiment.Outcome, len(jobs))
	for _, s := range sds {
		want := s.shard().Jobs(len(jobs))
		if !slices.Equal(s.info.Indices, want) {
			return nil, BadInputf("merge: %s: its manifest lists runs %v, not shard %s's runs of this plan %v", s.dir, s.info.Indices, s.shard(), want)
		}
		runs, extras, err := readRunFiles(folderReader(ctx, s.dir), plan, side)
		if err != nil {
			return nil, BadInputf("merge: %w", err)
		}
		got := map[runKey]experiment.Outcome{}
		for _, r := range runs {
			k := keyOfRun(r)
			if _, dup := got[k]; dup {
				return nil, BadInputf("merge: %s: runs.csv has the run %s, policy %s, replicate %d twice", s.dir, cellText(r.Param, r.Value), r.Policy, r.Seed)
			}
			o := experiment.Outcome{Run: r}
			if side != nil {
				x, ok := extras[k]
				if !ok {
					return nil, BadInputf("merge: %s: the run %s, policy %s, replicate %d is in runs.csv but not (whole) in %s",
						s.dir, cellText(r.Param, r.Value), r.Policy, r.Seed, strings.Join(side.files, ", "))
				}
				o.Shadows, o.Series = x.Shadows, x.Series
			}
			got[k] = o
		}
		for _, i := range want {
			o, ok := got[jobKey(plan, jobs[i])]
			if !ok {
				j := jobs[i]
				return nil, BadInputf("merge: %s: runs.csv lacks run %d (%s, policy %s, replicate %d) of shard %s", s.dir, i, plan.Cells[j.Cell].Param+"="+strconv.FormatFloat(plan.Cells[j.Cell].Value, 'g', -1, 64), j.Policy, j.Seed, s.shard())
			}
			outs[i] = o
		}
		if len(got) != len(want) {
			return nil, BadInputf("merge: %s: runs.csv holds %d runs, shard %s has %d: it holds runs of other shards", s.dir, len(got), s.shard(), len(want))
		}
	}
	return &mergeJob{spec: spec, plan: plan, args: first.info.Args, side: side, outs: outs, shards: sds, all: all}, nil
}

// cellText names a cell in messages.
func cellText(param string, value float64) string {
	if param == "" {
		return "run"
	}
	return param + "=" + strconv.FormatFloat(value, 'g', -1, 64)
}

// write writes the merged folder opts.Dir as a single run would.
func (j *mergeJob) write(opts Options) (*Result, error) {
	first, plan := j.shards[0], j.plan
	hash := first.m.ScenarioHash
	d, err := openDir(opts.Dir, hash, plan.Name, opts.Force, false, false, first.m.TimeDecisions,
		j.spec.writes(plan, j.side, opts), j.spec.runFiles(j.side))
	if err != nil {
		return nil, err
	}
	defer d.Close()
	// The shards' revision ran the runs, so it is the folder's version, as
	// in a single run; the merging binary is recorded beside it.
	m := Manifest{Tool: store.Tool, Version: first.m.Version, Command: mergedCommand(first.m.Command, opts.Dir), Experiment: plan.Name,
		Seed: first.m.Seed, Seeds: first.m.Seeds, ScenarioHash: hash, Started: time.Now().UTC(), Runs: len(j.outs),
		TimeDecisions: first.m.TimeDecisions, Extra: mergeExtra(j.all, opts)}
	if err := d.WriteManifest(m); err != nil {
		return nil, err
	}
	if err := writeScenario(d, plan); err != nil {
		return nil, err
	}
	if err := writeRunFiles(d, plan, j.side, j.outs); err != nil {
		return nil, err
	}
	m.RunsDone, m.Complete, m.Finished = len(j.outs), true, time.Now().UTC()
	if err := d.WriteManifest(m); err != nil {
		return nil, err
	}
	o := opts
	r := &Result{Plan: plan, Outcomes: j.outs, Args: j.args, Opts: &o, Dir: d}
	if err := writeOutputs(j.spec, r); err != nil {
		return nil, err
	}
	return r, nil
}

// shardRecord names a shard manifest in the merged one.
type shardRecord struct {
	Shard          string `json:"shard"`
	Dir            string `json:"dir"`
	ManifestSHA256 string `json:"manifest_sha256"`
}

// mergeExtra is a merged manifest's Extra: the shard manifests, each by
// its folder relative to the merged one, and the merge's own command and
// revision. The manifest's command is the shards' own (mergedCommand).
func mergeExtra(sds []shardDir, opts Options) map[string]any {
	var rs []shardRecord
	for _, s := range sds {
		rs = append(rs, shardRecord{Shard: s.shard().String(), Dir: relPath(s.dir, opts.Dir), ManifestSHA256: s.sum})
	}
	return map[string]any{extraShards: rs, "merged_by": Version(), extraMergeCommand: mergeCommand(opts.Command, opts.Dir)}
}

// specNamed finds the Spec a shard's manifest names: a command's, or one of
// reproduce's experiments.
func specNamed(name string) (Spec, bool) {
	for _, s := range Specs() {
		if s.Name == name {
			return s, true
		}
	}
	for _, e := range reproduceExperiments() {
		if e.spec.Name == name {
			return e.spec, true
		}
	}
	return Spec{}, false
}

// intList joins shard numbers.
func intList(ks []int, sep string) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = strconv.Itoa(k)
	}
	return strings.Join(s, sep)
}

// arrayList writes shard numbers as sbatch --array takes them, runs of
// consecutive numbers as ranges: 1,3-5.
func arrayList(ks []int) string {
	var parts []string
	for i := 0; i < len(ks); {
		j := i
		for j+1 < len(ks) && ks[j+1] == ks[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, strconv.Itoa(ks[i])+"-"+strconv.Itoa(ks[j]))
		} else {
			parts = append(parts, strconv.Itoa(ks[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// shardFolder is the folder name the array script gives shard k.
var shardFolder = regexp.MustCompile(`^shard-[0-9]+$`)

// rerunLine is the sbatch command that reruns just the missing shards with
// the command of a present one. OFFLOAD_SHARDS=K is exported because an array of
// only some task ids has another SLURM_ARRAY_TASK_COUNT than K, so the
// script's --shard auto must be told K.
func rerunLine(missing []int, K int, s shardDir) string {
	out := "OUT"
	if abs, err := filepath.Abs(s.dir); err == nil && shardFolder.MatchString(filepath.Base(abs)) {
		out = filepath.Dir(abs)
	}
	args := []string{"sbatch", "--array=" + arrayList(missing), "--export=ALL,OFFLOAD_SHARDS=" + strconv.Itoa(K), ArrayScript, out}
	cmd := s.m.Command
	if len(cmd) > 0 {
		cmd = cmd[1:] // the binary
	}
	// The script adds these itself.
	valued := map[string]bool{"-o": true, "--out": true, "--shard": true, "--shards": true, "-j": true, "--jobs": true}
	for i := 0; i < len(cmd); i++ {
		a := cmd[i]
		name, _, hasValue := strings.Cut(a, "=")
		switch {
		case valued[name] && hasValue:
			continue
		case valued[a]:
			i++
			continue
		case a == "--resume" || a == "--quiet":
			continue
		}
		args = append(args, a)
	}
	for i, a := range args {
		args[i] = shellQuote(a)
	}
	return strings.Join(args, " ")
}

// shellQuote quotes a word for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=,:+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// mergeReproduce merges the shard folders of a reproduce: every
// experiment's subfolder is merged as an experiment's shards are (all of
// them checked before anything is written), then claims.md is judged on the
// merged runs. The emulation (claim 6) cannot be sharded, so it is NOT RUN.
func mergeReproduce(ctx context.Context, all []shardDir, opts Options) error {
	roots, err := checkShards(ctx, all, nil)
	if err != nil {
		return err
	}
	// A root given twice (a retried shard) is compared, file by file, in
	// each experiment's merge; the first of each shard stands for it.
	var jobs []*mergeJob
	for _, e := range reproduceExperiments() {
		if e.optional && !isDir(filepath.Join(all[0].dir, e.spec.Name)) {
			continue // shards of a reproduction from before e was added
		}
		var dirs []string
		for _, r := range all {
			dirs = append(dirs, filepath.Join(r.dir, e.spec.Name))
		}
		sds, err := readShards(dirs)
		if err != nil {
			return err
		}
		for _, s := range sds {
			if s.info.Spec != e.spec.Name || s.info.Shard.Count != roots[0].info.Shard.Count {
				return BadInputf("merge: %s is not shard %s of reproduce's %s", s.dir, roots[0].shard(), e.spec.Name)
			}
		}
		job, err := prepareMerge(ctx, sds)
		if err != nil {
			return err
		}
		jobs = append(jobs, job)
	}
	first := roots[0]
	d, err := openDir(opts.Dir, first.m.ScenarioHash, reproduceName, opts.Force, false, false, false, []string{"claims.md"}, nil)
	if err != nil {
		return err
	}
	defer d.Close()
	m := Manifest{Tool: store.Tool, Version: first.m.Version, Command: mergedCommand(first.m.Command, opts.Dir), Experiment: reproduceName, Seed: first.m.Seed,
		Seeds: first.m.Seeds, ScenarioHash: first.m.ScenarioHash, Started: time.Now().UTC(), Extra: mergeExtra(roots, opts)}
	if err := d.WriteManifest(m); err != nil {
		return err
	}
	got := map[string]*Result{}
	for _, job := range jobs {
		o := opts
		o.Dir = filepath.Join(opts.Dir, job.spec.Name)
		o.Out = io.Discard
		r, err := job.write(o)
		if err != nil {
			return fmt.Errorf("%s: %w", job.spec.Name, err)
		}
		got[job.spec.Name] = r
		fmt.Fprintln(opts.Out, "wrote", o.Dir)
	}
	if _, err := writeClaims(d, first.info.Scale, first.m.Version, judgeClaims(got), staleSection(got), opts.Out); err != nil {
		return err
	}
	m.Complete, m.Finished = true, time.Now().UTC()
	return d.WriteManifest(m)
}

// isDir reports whether path is a directory.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
