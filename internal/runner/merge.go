package runner

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/scenario"
	"github.com/offload-sim/offload/internal/store"
)

// arrayScript is the Slurm job-array script (deploy/slurm) that merge's
// message names when shards are missing, so that the user reruns just them.
const arrayScript = "deploy/slurm/offload-array.sbatch"

// Shard is one shard folder as merge reads it.
type Shard struct {
	dir  string
	m    Manifest
	info shardInfo
	sum  string // SHA-256 of its manifest.json, recorded in the merged manifest
}

// SpecName is the experiment (or group of experiments) the shard ran.
func (s Shard) SpecName() string { return s.info.Spec }

// Dir is the shard's folder.
func (s Shard) Dir() string { return s.dir }

// Scale is the --scale of a reproduction's shard.
func (s Shard) Scale() string { return s.info.Scale }

// Version is the revision that ran the shard.
func (s Shard) Version() string { return s.m.Version }

// Manifest is the shard's manifest.
func (s Shard) Manifest() Manifest { return s.m }

// String names the shard, k/K.
func (s Shard) String() string { return s.shard().String() }

// Count is K, the number of shards of its plan.
func (s Shard) Count() int { return s.info.Shard.Count }

func (s Shard) shard() experiment.Shard {
	return experiment.Shard{Index: s.info.Shard.K, Count: s.info.Shard.Count}
}

// ReadShardsFor reads the manifests of the shard folders dirs, to be
// merged into out, which must be none of them: merging into a shard would
// replace the shard's own files. A merge writes exactly the files a single
// run of the plan writes (manifest timestamps aside).
//
// Before anything is written the merge checks (CheckShards, PrepareMerge)
// that every shard is complete; that scenario hash, tool revision, master
// seed, replicates, K and the experiment's flags agree; that shards 0 …
// K−1 are all there (the message names the missing ones, and the sbatch
// line that reruns just them); that each shard holds exactly its runs of
// the plan rebuilt from scenario.yaml; and that a shard given twice (a
// retry) has the same bytes both times. Every failed check is bad input
// with nothing written. Reading ends once ctx is done.
func ReadShardsFor(dirs []string, out string) ([]Shard, error) {
	for _, dir := range dirs {
		if same, _ := SameDir(out, dir); same {
			return nil, BadInputf("merge: -o %s is the shard folder %s: merging into it would replace the shard's own files; give -o a new folder", out, dir)
		}
	}
	return ReadShards(dirs)
}

// ReadShards reads the shard manifests.
func ReadShards(dirs []string) ([]Shard, error) {
	if len(dirs) == 0 {
		return nil, BadInputf("merge: no shard folders given")
	}
	var sds []Shard
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
		sds = append(sds, Shard{dir: dir, m: m, info: info, sum: hex.EncodeToString(sum[:])})
	}
	return sds, nil
}

// CheckShards runs the checks on the manifests alone (agreement,
// completeness, duplicates, missing shards) and returns one folder per
// shard, in shard order. runFiles, if given, are the files a duplicated
// shard must repeat byte for byte.
func CheckShards(ctx context.Context, sds []Shard, runFiles []string) ([]Shard, error) {
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
	byShard := make([]*Shard, K)
	for i := range sds {
		s := &sds[i]
		k := s.info.Shard.K
		if prev := byShard[k]; prev != nil {
			for _, f := range runFiles {
				a, errA := ReadResult(ctx, filepath.Join(prev.dir, f))
				b, errB := ReadResult(ctx, filepath.Join(s.dir, f))
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
	out := make([]Shard, K)
	for k, s := range byShard {
		out[k] = *s
	}
	return out, nil
}

// MergeJob is one experiment's merge, checked and ready to write.
type MergeJob struct {
	spec   Spec
	plan   *experiment.Plan
	args   Args
	side   *Sidecar
	outs   []experiment.Outcome // job order
	shards []Shard
	all    []Shard // every folder given, duplicates included
}

// PrepareMerge checks the shards of one experiment, spec, and reads their
// runs.
func PrepareMerge(ctx context.Context, all []Shard, spec Spec) (*MergeJob, error) {
	first := all[0]
	var side *Sidecar
	if spec.Side != nil {
		side = spec.Side(first.info.Args)
	}
	sds, err := CheckShards(ctx, all, spec.runFiles(side))
	if err != nil {
		return nil, err
	}
	plan, err := mergedPlan(ctx, sds, spec)
	if err != nil {
		return nil, err
	}
	jobs := plan.Jobs()
	outs := make([]experiment.Outcome, len(jobs))
	for _, s := range sds {
		if err := readShardRuns(ctx, s, plan, jobs, side, outs); err != nil {
			return nil, err
		}
	}
	return &MergeJob{spec: spec, plan: plan, args: first.info.Args, side: side, outs: outs, shards: sds, all: all}, nil
}

// mergedPlan rebuilds the plan of the shards sds from their scenario.yaml,
// which must be the same in all, with the data it replays, and checks it
// against the first shard's manifest.
func mergedPlan(ctx context.Context, sds []Shard, spec Spec) (*experiment.Plan, error) {
	first := sds[0]
	sc, err := mergedScenario(ctx, sds)
	if err != nil {
		return nil, err
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
	if n := len(plan.Jobs()); n != first.info.PlanRuns {
		return nil, BadInputf("merge: the scenario of %s expands to %d runs, its manifest says %d", first.dir, n, first.info.PlanRuns)
	}
	return plan, nil
}

// mergedScenario reads the shards' scenario.yaml, the same bytes in each,
// attaches the data it replays, and checks its hash against the first
// shard's manifest.
func mergedScenario(ctx context.Context, sds []Shard) (*scenario.Scenario, error) {
	first := sds[0]
	resolved, err := ReadResult(ctx, filepath.Join(first.dir, "scenario.yaml"))
	if err != nil {
		return nil, BadInputf("merge: %s: %w", first.dir, err)
	}
	for _, s := range sds {
		b, err := ReadResult(ctx, filepath.Join(s.dir, "scenario.yaml"))
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
	return sc, nil
}

// readShardRuns reads shard s's runs (and its sidecar's extras) into outs,
// by job index, checking that it holds exactly its runs of the plan.
func readShardRuns(ctx context.Context, s Shard, plan *experiment.Plan, jobs []experiment.Job, side *Sidecar, outs []experiment.Outcome) error {
	want := s.shard().Jobs(len(jobs))
	if !slices.Equal(s.info.Indices, want) {
		return BadInputf("merge: %s: its manifest lists runs %v, not shard %s's runs of this plan %v", s.dir, s.info.Indices, s.shard(), want)
	}
	got, err := shardOutcomes(ctx, s, plan, side)
	if err != nil {
		return err
	}
	for _, i := range want {
		o, ok := got[jobKey(plan, jobs[i])]
		if !ok {
			j := jobs[i]
			return BadInputf("merge: %s: runs.csv lacks run %d (%s, policy %s, replicate %d) of shard %s", s.dir, i, plan.Cells[j.Cell].Param+"="+strconv.FormatFloat(plan.Cells[j.Cell].Value, 'g', -1, 64), j.Policy, j.Seed, s.shard())
		}
		outs[i] = o
	}
	if len(got) != len(want) {
		return BadInputf("merge: %s: runs.csv holds %d runs, shard %s has %d: it holds runs of other shards", s.dir, len(got), s.shard(), len(want))
	}
	return nil
}

// shardOutcomes reads a shard's runs.csv and sidecar into outcomes by run;
// a run twice, or without its extras, is bad input.
func shardOutcomes(ctx context.Context, s Shard, plan *experiment.Plan, side *Sidecar) (map[RunKey]experiment.Outcome, error) {
	runs, extras, err := readRunFiles(folderReader(ctx, s.dir), plan, side)
	if err != nil {
		return nil, BadInputf("merge: %w", err)
	}
	got := map[RunKey]experiment.Outcome{}
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
					s.dir, cellText(r.Param, r.Value), r.Policy, r.Seed, strings.Join(side.Files, ", "))
			}
			o.Shadows, o.Series = x.Shadows, x.Series
		}
		got[k] = o
	}
	return got, nil
}

// cellText names a cell in messages.
func cellText(param string, value float64) string {
	if param == "" {
		return "run"
	}
	return param + "=" + strconv.FormatFloat(value, 'g', -1, 64)
}

// Name is the experiment the job merges.
func (j *MergeJob) Name() string { return j.spec.Name }

// Write writes the merged folder opts.Dir as a single run would.
func (j *MergeJob) Write(opts Options) (*Result, error) {
	first, plan := j.shards[0], j.plan
	hash := first.m.ScenarioHash
	d, err := openDir(opts.Dir, hash, plan.Name, opts.Force, false, false, first.m.TimeDecisions,
		j.spec.writes(plan, j.side, opts), j.spec.runFiles(j.side))
	if err != nil {
		return nil, err
	}
	defer d.Close()
	m := MergedManifest(j.all, plan.Name, opts)
	m.Runs = len(j.outs)
	if err := d.WriteManifest(*m); err != nil {
		return nil, err
	}
	if err := writeScenario(d, plan); err != nil {
		return nil, err
	}
	if err := writeRunFiles(d, plan, j.side, j.outs); err != nil {
		return nil, err
	}
	m.RunsDone = len(j.outs)
	if err := WriteComplete(d, m); err != nil {
		return nil, err
	}
	o := opts
	r := &Result{Plan: plan, Outcomes: j.outs, Args: j.args, Opts: &o, Dir: d}
	if err := writeOutputs(j.spec, r); err != nil {
		return nil, err
	}
	return r, nil
}

// MergedManifest is the manifest of the folder opts.Dir merged, for
// experiment name, from the shard folders sds (the first standing for
// all): the shards' revision ran the runs, so it is the folder's version,
// as in a single run; the merging binary is recorded beside it, with the
// shards' manifests (mergeExtra).
func MergedManifest(sds []Shard, name string, opts Options) *Manifest {
	first := sds[0].m
	m := NewManifest(mergedCommand(first.Command, opts.Dir), name, first.Seed, first.Seeds, first.ScenarioHash)
	m.Version, m.TimeDecisions, m.Extra = first.Version, first.TimeDecisions, mergeExtra(sds, opts)
	return m
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
func mergeExtra(sds []Shard, opts Options) map[string]any {
	var rs []shardRecord
	for _, s := range sds {
		rs = append(rs, shardRecord{Shard: s.shard().String(), Dir: relPath(s.dir, opts.Dir), ManifestSHA256: s.sum})
	}
	return map[string]any{extraShards: rs, "merged_by": Version(), extraMergeCommand: mergeCommand(opts.Command, opts.Dir)}
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
func rerunLine(missing []int, K int, s Shard) string {
	out := "OUT"
	if abs, err := filepath.Abs(s.dir); err == nil && shardFolder.MatchString(filepath.Base(abs)) {
		out = filepath.Dir(abs)
	}
	args := []string{"sbatch", "--array=" + arrayList(missing), "--export=ALL,OFFLOAD_SHARDS=" + strconv.Itoa(K), arrayScript, out}
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
	return store.ShellJoin(args)
}
