package experiment

import (
	"fmt"
	"strconv"
	"strings"
)

// Environment variables of the schedulers that --shard auto reads.
const (
	EnvSlurmID    = "SLURM_ARRAY_TASK_ID"
	EnvSlurmCount = "SLURM_ARRAY_TASK_COUNT"
	EnvSlurmMin   = "SLURM_ARRAY_TASK_MIN"
	EnvSlurmMax   = "SLURM_ARRAY_TASK_MAX"
	EnvSlurmStep  = "SLURM_ARRAY_TASK_STEP"
	EnvK8sIndex   = "JOB_COMPLETION_INDEX"
)

// ParseShard reads --shard (k/K, auto or empty) and --shards (K, for auto)
// into a shard. auto takes k and K from a Slurm job array
// (SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT, the array being 0…K−1
// with step 1), or from a Kubernetes Indexed Job (JOB_COMPLETION_INDEX,
// with --shards K since Kubernetes does not export the completion count).
// A wrong shard silently runs the wrong slice and leaves a hole that only
// merge finds, so anything it cannot read unambiguously is an error, never
// a guess. It reads the environment only through env, so that it is tested
// on tables.
func ParseShard(flag string, shards int, env func(string) string) (Shard, error) {
	if shards < 0 {
		return Shard{}, fmt.Errorf("--shards %d: must be ≥ 1", shards)
	}
	switch flag {
	case "":
		if shards != 0 {
			return Shard{}, fmt.Errorf("--shards %d is for --shard auto; without --shard the whole plan runs", shards)
		}
		return Shard{}, nil
	case "auto":
		return autoShard(shards, env)
	}
	if shards != 0 {
		return Shard{}, fmt.Errorf("--shards %d is for --shard auto; --shard %s gives K already", shards, flag)
	}
	ks, Ks, ok := strings.Cut(flag, "/")
	k, errK := strconv.Atoi(ks)
	K, errN := strconv.Atoi(Ks)
	if !ok || errK != nil || errN != nil || K < 1 || k < 0 || k >= K {
		return Shard{}, fmt.Errorf("--shard %q: want k/K with 0 ≤ k < K (e.g. 0/4 … 3/4), or auto", flag)
	}
	return Shard{Index: k, Count: K}, nil
}

// autoShard is --shard auto.
func autoShard(shards int, env func(string) string) (Shard, error) {
	slurm, k8s := env(EnvSlurmID), env(EnvK8sIndex)
	switch {
	case slurm != "" && k8s != "":
		return Shard{}, fmt.Errorf("--shard auto: both %s (Slurm) and %s (Kubernetes) are set; give --shard k/K", EnvSlurmID, EnvK8sIndex)
	case k8s != "":
		if shards == 0 {
			return Shard{}, fmt.Errorf("--shard auto: %s=%s is set, but Kubernetes does not export the number of completions; add --shards K (the Job's completions)", EnvK8sIndex, k8s)
		}
		return indexShard(EnvK8sIndex, k8s, shards)
	case slurm != "":
		if shards != 0 {
			// K given: the array may be a rerun of some shards only
			// (--array=1,3), whose own count and bounds are not K's.
			return indexShard(EnvSlurmID, slurm, shards)
		}
		count := env(EnvSlurmCount)
		K, err := strconv.Atoi(count)
		if err != nil || K < 1 {
			return Shard{}, fmt.Errorf("--shard auto: %s=%q is not a task count; is this a job array? (or add --shards K)", EnvSlurmCount, count)
		}
		if v := env(EnvSlurmMin); v != "0" {
			return Shard{}, fmt.Errorf("--shard auto: %s=%q: the array does not start at 0, so its task ids are not shard numbers; submit --array=0-%d, or add --shards K", EnvSlurmMin, v, K-1)
		}
		if v := env(EnvSlurmStep); v != "1" {
			return Shard{}, fmt.Errorf("--shard auto: %s=%q: the array's step is not 1, so its task ids are not shard numbers; submit --array=0-%d, or add --shards K", EnvSlurmStep, v, K-1)
		}
		if v := env(EnvSlurmMax); v != "" && v != strconv.Itoa(K-1) {
			return Shard{}, fmt.Errorf("--shard auto: %s=%s with %s=%d: the task ids are not 0…%d; submit --array=0-%d, or add --shards K", EnvSlurmMax, v, EnvSlurmCount, K, K-1, K-1)
		}
		return indexShard(EnvSlurmID, slurm, K)
	}
	return Shard{}, fmt.Errorf("--shard auto: neither %s (a Slurm job array) nor %s (a Kubernetes Indexed Job) is set; give --shard k/K", EnvSlurmID, EnvK8sIndex)
}

// indexShard reads a scheduler's task index as shard k of K.
func indexShard(name, value string, K int) (Shard, error) {
	k, err := strconv.Atoi(value)
	if err != nil || k < 0 || k >= K {
		return Shard{}, fmt.Errorf("--shard auto: %s=%q is not a shard number 0…%d", name, value, K-1)
	}
	return Shard{Index: k, Count: K}, nil
}
