package cmd

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/offload-sim/offload/internal/experiment"
)

// Environment variables of the schedulers that --shard auto reads.
const (
	envSlurmID    = "SLURM_ARRAY_TASK_ID"
	envSlurmCount = "SLURM_ARRAY_TASK_COUNT"
	envSlurmMin   = "SLURM_ARRAY_TASK_MIN"
	envSlurmMax   = "SLURM_ARRAY_TASK_MAX"
	envSlurmStep  = "SLURM_ARRAY_TASK_STEP"
	envK8sIndex   = "JOB_COMPLETION_INDEX"
)

// parseShard reads --shard (k/K, auto or empty) and --shards (K, for auto)
// into a shard. auto takes k and K from a Slurm job array
// (SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT, the array being 0…K−1
// with step 1), or from a Kubernetes Indexed Job (JOB_COMPLETION_INDEX,
// with --shards K since Kubernetes does not export the completion count).
// A wrong shard silently runs the wrong slice and leaves a hole that only
// merge finds, so anything it cannot read unambiguously is an error, never
// a guess. It reads the environment only through env, so that it is tested
// on tables.
func parseShard(flag string, shards int, env func(string) string) (experiment.Shard, error) {
	if shards < 0 {
		return experiment.Shard{}, fmt.Errorf("--shards %d: must be ≥ 1", shards)
	}
	switch flag {
	case "":
		if shards != 0 {
			return experiment.Shard{}, fmt.Errorf("--shards %d is for --shard auto; without --shard the whole plan runs", shards)
		}
		return experiment.Shard{}, nil
	case "auto":
		return autoShard(shards, env)
	}
	if shards != 0 {
		return experiment.Shard{}, fmt.Errorf("--shards %d is for --shard auto; --shard %s gives K already", shards, flag)
	}
	ks, Ks, ok := strings.Cut(flag, "/")
	k, errK := strconv.Atoi(ks)
	K, errN := strconv.Atoi(Ks)
	if !ok || errK != nil || errN != nil || K < 1 || k < 0 || k >= K {
		return experiment.Shard{}, fmt.Errorf("--shard %q: want k/K with 0 ≤ k < K (e.g. 0/4 … 3/4), or auto", flag)
	}
	return experiment.Shard{Index: k, Count: K}, nil
}

// autoShard is --shard auto.
func autoShard(shards int, env func(string) string) (experiment.Shard, error) {
	slurm, k8s := env(envSlurmID), env(envK8sIndex)
	switch {
	case slurm != "" && k8s != "":
		return experiment.Shard{}, fmt.Errorf("--shard auto: both %s (Slurm) and %s (Kubernetes) are set; give --shard k/K", envSlurmID, envK8sIndex)
	case k8s != "":
		if shards == 0 {
			return experiment.Shard{}, fmt.Errorf("--shard auto: %s=%s is set, but Kubernetes does not export the number of completions; add --shards K (the Job's completions)", envK8sIndex, k8s)
		}
		return indexShard(envK8sIndex, k8s, shards)
	case slurm != "":
		if shards != 0 {
			// K given: the array may be a rerun of some shards only
			// (--array=1,3), whose own count and bounds are not K's.
			return indexShard(envSlurmID, slurm, shards)
		}
		count := env(envSlurmCount)
		K, err := strconv.Atoi(count)
		if err != nil || K < 1 {
			return experiment.Shard{}, fmt.Errorf("--shard auto: %s=%q is not a task count; is this a job array? (or add --shards K)", envSlurmCount, count)
		}
		if v := env(envSlurmMin); v != "0" {
			return experiment.Shard{}, fmt.Errorf("--shard auto: %s=%q: the array does not start at 0, so its task ids are not shard numbers; submit --array=0-%d, or add --shards K", envSlurmMin, v, K-1)
		}
		if v := env(envSlurmStep); v != "1" {
			return experiment.Shard{}, fmt.Errorf("--shard auto: %s=%q: the array's step is not 1, so its task ids are not shard numbers; submit --array=0-%d, or add --shards K", envSlurmStep, v, K-1)
		}
		if v := env(envSlurmMax); v != "" && v != strconv.Itoa(K-1) {
			return experiment.Shard{}, fmt.Errorf("--shard auto: %s=%s with %s=%d: the task ids are not 0…%d; submit --array=0-%d, or add --shards K", envSlurmMax, v, envSlurmCount, K, K-1, K-1)
		}
		return indexShard(envSlurmID, slurm, K)
	}
	return experiment.Shard{}, fmt.Errorf("--shard auto: neither %s (a Slurm job array) nor %s (a Kubernetes Indexed Job) is set; give --shard k/K", envSlurmID, envK8sIndex)
}

// indexShard reads a scheduler's task index as shard k of K.
func indexShard(name, value string, K int) (experiment.Shard, error) {
	k, err := strconv.Atoi(value)
	if err != nil || k < 0 || k >= K {
		return experiment.Shard{}, fmt.Errorf("--shard auto: %s=%q is not a shard number 0…%d", name, value, K-1)
	}
	return experiment.Shard{Index: k, Count: K}, nil
}
