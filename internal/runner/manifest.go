package runner

import (
	"time"

	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/store"
)

// NewManifest is the manifest a command starts a results folder with: this
// build's version, the command line, the experiment, its master seed and
// replicates, the hash of what it runs, started now. The caller adds what
// is its own (the run count, a shard's or a merge's Extra) before writing
// it.
func NewManifest(command []string, experiment string, seed uint64, seeds int, hash string) *Manifest {
	return &Manifest{Tool: store.Tool, Version: Version(), Command: command, Experiment: experiment,
		Seed: seed, Seeds: seeds, ScenarioHash: hash, Started: time.Now().UTC()}
}

// WriteComplete marks m complete, finished now, and writes it into d.
func WriteComplete(d *store.Dir, m *Manifest) error {
	m.Complete, m.Finished = true, time.Now().UTC()
	return d.WriteManifest(*m)
}

// GroupShardExtra is the Extra of the manifest of a shard of a group of
// experiments (a reproduction's, named name), each the same shard in its
// own folder; scale is recorded for what merge writes of the group.
func GroupShardExtra(sh experiment.Shard, name, scale string) map[string]any {
	return map[string]any{extraShard: shardKey{sh.Index, sh.Count}, extraSpec: name, extraScale: scale}
}
