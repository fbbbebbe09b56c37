package experiment

import (
	"fmt"
	"strconv"
)

// Shard is one of Count disjoint slices of a plan, so that a plan too big
// for one machine runs on several (a Slurm job array, a Kubernetes Indexed
// Job) and merges back into the bytes of a single run: the shard holds the
// jobs whose index in Jobs order is Index modulo Count. Striding, rather
// than cutting the job list into blocks, spreads every cell and policy over
// all shards, so that shards take about the same time even when one cell
// (a saturated load) is much slower than the others. A run's seeds derive
// from (master seed, replicate, stream), never from the worker or the
// shard, so a run is the same wherever it runs. The zero value is the whole
// plan.
type Shard struct {
	Index int // k, 0 ≤ k < Count
	Count int // K; 0: not sharded
}

// Whole says whether s is the whole plan (no sharding).
func (s Shard) Whole() bool { return s.Count == 0 }

// Holds says whether job i (its index in Jobs order) is the shard's.
func (s Shard) Holds(i int) bool { return s.Count == 0 || i%s.Count == s.Index }

// Jobs lists the shard's job indices among n jobs, ascending.
func (s Shard) Jobs(n int) []int {
	idx := []int{}
	for i := range n {
		if s.Holds(i) {
			idx = append(idx, i)
		}
	}
	return idx
}

// Check says whether s names a shard: 0 ≤ Index < Count, or the zero value.
func (s Shard) Check() error {
	if s.Whole() && s.Index == 0 {
		return nil
	}
	if s.Count < 1 || s.Index < 0 || s.Index >= s.Count {
		return fmt.Errorf("shard %d/%d: need 0 ≤ k < K", s.Index, s.Count)
	}
	return nil
}

// String is the shard as --shard takes it, k/K ("" for the whole plan).
func (s Shard) String() string {
	if s.Whole() {
		return ""
	}
	return strconv.Itoa(s.Index) + "/" + strconv.Itoa(s.Count)
}
