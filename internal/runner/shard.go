package runner

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/store"
)

// Keys of a shard's manifest Extra map.
const (
	extraShard    = "shard"       // {"k": k, "K": K}
	extraSpec     = "spec"        // the Spec's name, so merge knows which outputs to write
	extraIndices  = "run_indices" // the plan's job indices the shard holds
	extraPlanRuns = "plan_runs"   // the whole plan's run count
	extraArgs     = "args"        // the experiment's own flags (Args)
	extraScale    = "scale"       // reproduce: --scale, for claims.md's provenance
	extraShards   = "shards"      // a merged folder: the shard manifests it came from
)

// shardKey is the manifest's record of a shard, {"k": k, "K": K}, the
// names --shard k/K gives them. encoding/json prefers an exact key match, so the two
// keys that differ only in case decode into their own fields.
type shardKey struct {
	K     int `json:"k"`
	Count int `json:"K"`
}

// shardInfo is what a shard's manifest says beyond the common fields.
type shardInfo struct {
	Shard    shardKey `json:"shard"`
	Spec     string   `json:"spec"`
	Indices  []int    `json:"run_indices"`
	PlanRuns int      `json:"plan_runs"`
	Args     Args     `json:"args"`
	Scale    string   `json:"scale"`
}

// shardExtra is the Extra map of a shard's manifest.
func shardExtra(spec Spec, a Args, sh experiment.Shard, planRuns int) map[string]any {
	return map[string]any{
		extraShard:    shardKey{sh.Index, sh.Count},
		extraSpec:     spec.Name,
		extraIndices:  sh.Jobs(planRuns),
		extraPlanRuns: planRuns,
		extraArgs:     a,
	}
}

// readShardInfo decodes a manifest's shard keys; ok is false when the
// manifest has no shard (a whole run, or a merged folder).
func readShardInfo(m Manifest) (info shardInfo, ok bool, err error) {
	if _, ok := m.Extra[extraShard]; !ok {
		return info, false, nil
	}
	b, err := json.Marshal(m.Extra)
	if err != nil {
		return info, true, err
	}
	return info, true, json.Unmarshal(b, &info)
}

// CheckResumedShard refuses a --resume into a folder that holds another
// shard of the same scenario (or a whole run into a shard's folder): the
// hash agrees, so the store would accept it, and the runs of two shards
// would be mixed under one manifest.
func CheckResumedShard(d *store.Dir, o Options) error {
	old, had := d.Old()
	if !o.Resume || !had {
		return nil
	}
	info, sharded, err := readShardInfo(old)
	if err != nil {
		return BadInputf("--resume: %s: manifest.json: %w", d.Path(), err)
	}
	was := experiment.Shard{}
	if sharded {
		was = experiment.Shard{Index: info.Shard.K, Count: info.Shard.Count}
	}
	if was != o.Shard {
		return BadInputf("--resume: -o %s holds %s, not %s; resume it with the same --shard", d.Path(), shardName(was), shardName(o.Shard))
	}
	return nil
}

// shardName names a shard in messages.
func shardName(s experiment.Shard) string {
	if s.Whole() {
		return "a whole (unsharded) run"
	}
	return "shard " + s.String()
}

// noteShard prints what a shard wrote, and that the summaries come from
// merge.
func noteShard(w io.Writer, dir string, spec Spec, side *Sidecar, sh experiment.Shard, runs int) {
	NoteWritten(w, fmtPath(dir, "runs.csv"))
	if side != nil {
		for _, f := range side.Files {
			NoteWritten(w, fmtPath(dir, f))
		}
	}
	fmt.Fprintf(w, "shard %s of %s: %d runs; summary.csv and the plots come from `offload merge -o OUT` over the %d shard folders\n",
		sh, spec.Name, runs, sh.Count)
}
