package experiment

import (
	"slices"
	"testing"
)

// groups covers every job to run exactly once, each group of one cell and
// replicate with its policies in job order; with fewer groups than
// workers it splits them so that every worker has work, and otherwise
// keeps them whole.
func TestGroupsPartitionTheJobs(t *testing.T) {
	var jobs []Job
	for c := range 3 {
		for _, p := range []string{"a", "b", "c", "d"} {
			for r := range 2 {
				jobs = append(jobs, Job{Cell: c, Policy: p, Seed: r})
			}
		}
	}
	all := make([]int, len(jobs))
	for i := range all {
		all[i] = i
	}
	some := []int{0, 3, 4, 9, 10, 11, 23}
	for _, tc := range []struct {
		run       []int
		workers   int
		minGroups int
	}{{all, 1, 6}, {all, 2, 6}, {all, 8, 8}, {some, 1, 5}, {some, 4, 5}, {some, 6, 7}, {nil, 2, 0}} {
		gs := groups(jobs, tc.run, tc.workers)
		var seen []int
		for _, g := range gs {
			if len(g) == 0 {
				t.Fatalf("run %v, %d workers: an empty group in %v", tc.run, tc.workers, gs)
			}
			for _, i := range g {
				if jobs[i].Cell != jobs[g[0]].Cell || jobs[i].Seed != jobs[g[0]].Seed {
					t.Fatalf("run %v, %d workers: group %v mixes cells or replicates", tc.run, tc.workers, g)
				}
			}
			if !slices.IsSorted(g) {
				t.Fatalf("group %v out of job order", g)
			}
			seen = append(seen, g...)
		}
		slices.Sort(seen)
		if !slices.Equal(seen, tc.run) && !(len(seen) == 0 && len(tc.run) == 0) {
			t.Errorf("run %v, %d workers: groups %v cover %v", tc.run, tc.workers, gs, seen)
		}
		if tc.workers <= 6 && tc.run != nil && len(tc.run) == len(all) && len(gs) != 6 {
			t.Errorf("all jobs, %d workers: %d groups, want the 6 whole ones", tc.workers, len(gs))
		}
		if len(gs) < tc.minGroups {
			t.Errorf("run %v, %d workers: %d groups %v, want at least %d", tc.run, tc.workers, len(gs), gs, tc.minGroups)
		}
	}
}

// A worker's tapes take 8 bytes per value, 5 values per task of the
// default scenario (arrival, size, three delays), up to TapeBudget; a plan
// of one policy records none.
func TestTapeBytes(t *testing.T) {
	two, err := NewPlan("t", defaultAt(t, 60, 1000, 1, "policies=[jsq, random]"))
	if err != nil {
		t.Fatal(err)
	}
	one, err := NewPlan("t", defaultAt(t, 60, 1000, 1, "policies=[jsq]"))
	if err != nil {
		t.Fatal(err)
	}
	if got := two.TapeBytes(1000); got != 40*1000 {
		t.Errorf("two policies, 1000 tasks: %v bytes, want 40000", got)
	}
	if got := two.TapeBytes(1e9); got != TapeBudget {
		t.Errorf("two policies, 10⁹ tasks: %v bytes, want the budget %d", got, TapeBudget)
	}
	if got := one.TapeBytes(1000); got != 0 {
		t.Errorf("one policy: %v bytes, want 0", got)
	}
}
