package deploy

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// job is the part of a batch/v1 Job the test reads.
type job struct {
	Kind string `yaml:"kind"`
	Spec struct {
		CompletionMode string `yaml:"completionMode"`
		Completions    int    `yaml:"completions"`
		Parallelism    int    `yaml:"parallelism"`
		Template       struct {
			Spec struct {
				Containers []struct {
					Command []string `yaml:"command"`
					Env     []struct {
						Name      string `yaml:"name"`
						ValueFrom struct {
							FieldRef struct {
								FieldPath string `yaml:"fieldPath"`
							} `yaml:"fieldRef"`
						} `yaml:"valueFrom"`
					} `yaml:"env"`
					VolumeMounts []struct {
						Name      string `yaml:"name"`
						MountPath string `yaml:"mountPath"`
					} `yaml:"volumeMounts"`
				} `yaml:"containers"`
				Volumes []struct {
					Name                  string `yaml:"name"`
					PersistentVolumeClaim struct {
						ClaimName string `yaml:"claimName"`
					} `yaml:"persistentVolumeClaim"`
				} `yaml:"volumes"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

func readJob(t *testing.T, path string) job {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var j job
	if err := yaml.Unmarshal(b, &j); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if j.Kind != "Job" || len(j.Spec.Template.Spec.Containers) != 1 {
		t.Fatalf("%s: kind %q with %d containers, want one Job container", path, j.Kind, len(j.Spec.Template.Spec.Containers))
	}
	return j
}

// flagValue returns the word after flag in args.
func flagValue(args []string, flag string) (string, bool) {
	i := slices.Index(args, flag)
	if i < 0 || i+1 >= len(args) {
		return "", false
	}
	return args[i+1], true
}

// sbatch is what the test reads of offload-array.sbatch: K from its
// #SBATCH --array=0-N, the default experiment, and the words of the
// offload command after the experiment's own arguments ("$@").
func sbatch(t *testing.T) (K int, experiment string, words []string) {
	t.Helper()
	b, err := os.ReadFile("slurm/offload-array.sbatch")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	m := regexp.MustCompile(`(?m)^#SBATCH --array=0-([0-9]+)$`).FindStringSubmatch(s)
	if m == nil {
		t.Fatal("offload-array.sbatch: no #SBATCH --array=0-N line")
	}
	n, _ := strconv.Atoi(m[1])
	e := regexp.MustCompile(`(?m)^\[ \$# -gt 0 \] \|\| set -- (\S+)$`).FindStringSubmatch(s)
	if e == nil {
		t.Fatal("offload-array.sbatch: no default experiment (set -- EXPERIMENT)")
	}
	x := regexp.MustCompile(`(?m)^exec "\$\{OFFLOAD:-offload\}" "\$@" (.*)$`).FindStringSubmatch(s)
	if x == nil {
		t.Fatal(`offload-array.sbatch: no exec "${OFFLOAD:-offload}" "$@" … line`)
	}
	return n + 1, e[1], strings.Fields(x[1])
}

// TestShardsJobAgreesWithSbatch: the Indexed Job runs the array script's
// command, with the same K, flags and shard folder layout.
func TestShardsJobAgreesWithSbatch(t *testing.T) {
	K, experiment, words := sbatch(t)
	j := readJob(t, "k8s/shards-job.yaml")
	c := j.Spec.Template.Spec.Containers[0]
	if j.Spec.CompletionMode != "Indexed" {
		t.Errorf("completionMode %q, want Indexed", j.Spec.CompletionMode)
	}
	if j.Spec.Completions != K {
		t.Errorf("completions %d, the sbatch array has K = %d", j.Spec.Completions, K)
	}
	if p := j.Spec.Parallelism; p < 1 || p > K {
		t.Errorf("parallelism %d, want 1…%d", p, K)
	}
	cmd := c.Command
	if len(cmd) < 2 || cmd[0] != "offload" || cmd[1] != experiment {
		t.Fatalf("command %q, want offload %s … (the sbatch's default)", cmd, experiment)
	}
	if v, _ := flagValue(cmd, "--shards"); v != strconv.Itoa(K) {
		t.Errorf("--shards %q, want K = %d", v, K)
	}
	for _, flag := range []string{"--shard", "-j"} {
		jv, okJ := flagValue(cmd, flag)
		sv, okS := flagValue(words, flag)
		if !okJ || !okS {
			t.Errorf("%s: in the Job %v, in the sbatch %v", flag, okJ, okS)
		}
		if flag == "--shard" && (jv != "auto" || sv != "auto") {
			t.Errorf("--shard %q in the Job, %q in the sbatch; want auto in both", jv, sv)
		}
	}
	for _, flag := range []string{"--resume", "--quiet"} {
		if slices.Contains(cmd, flag) != slices.Contains(words, flag) {
			t.Errorf("%s in the Job %v, in the sbatch %v", flag, slices.Contains(cmd, flag), slices.Contains(words, flag))
		}
	}
	out, _ := flagValue(cmd, "-o")
	sout, _ := flagValue(words, "-o")
	if out != "/results/shard-$(JOB_COMPLETION_INDEX)" || sout != `"$out/shard-$SLURM_ARRAY_TASK_ID"` {
		t.Errorf("-o %q in the Job, %q in the sbatch: want ROOT/shard-INDEX in both", out, sout)
	}
	if len(c.Env) != 1 || c.Env[0].Name != "JOB_COMPLETION_INDEX" ||
		c.Env[0].ValueFrom.FieldRef.FieldPath != "metadata.annotations['batch.kubernetes.io/job-completion-index']" {
		t.Errorf("env %+v: want JOB_COMPLETION_INDEX from the completion-index annotation", c.Env)
	}
	checkVolume(t, "shards-job.yaml", j)
}

// TestMergeJobAgreesWithShards: the merge Job merges exactly shard-0 …
// shard-(K−1) of the shards' root into ROOT/merged, as merge.sbatch does.
func TestMergeJobAgreesWithShards(t *testing.T) {
	K, _, _ := sbatch(t)
	j := readJob(t, "k8s/merge-job.yaml")
	want := []string{"offload", "merge", "-o", "/results/merged"}
	for k := range K {
		want = append(want, "/results/shard-"+strconv.Itoa(k))
	}
	if got := j.Spec.Template.Spec.Containers[0].Command; !slices.Equal(got, want) {
		t.Errorf("merge command %q, want %q", got, want)
	}
	b, err := os.ReadFile("slurm/merge.sbatch")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `merge -o "$out/merged" "$out"/shard-*`) {
		t.Error(`merge.sbatch does not merge "$out"/shard-* into "$out/merged"`)
	}
	checkVolume(t, "merge-job.yaml", j)
}

// checkVolume: the Job mounts the claim of pvc.yaml at /results.
func checkVolume(t *testing.T, name string, j job) {
	t.Helper()
	b, err := os.ReadFile("k8s/pvc.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var pvc struct {
		Kind     string `yaml:"kind"`
		Metadata struct {
			Name string `yaml:"name"`
		} `yaml:"metadata"`
	}
	if err := yaml.Unmarshal(b, &pvc); err != nil || pvc.Kind != "PersistentVolumeClaim" {
		t.Fatalf("pvc.yaml: %v, kind %q", err, pvc.Kind)
	}
	s := j.Spec.Template.Spec
	c := s.Containers[0]
	if len(c.VolumeMounts) != 1 || c.VolumeMounts[0].MountPath != "/results" || len(s.Volumes) != 1 ||
		s.Volumes[0].Name != c.VolumeMounts[0].Name || s.Volumes[0].PersistentVolumeClaim.ClaimName != pvc.Metadata.Name {
		t.Errorf("%s: mounts %+v, volumes %+v; want the claim %q at /results", name, c.VolumeMounts, s.Volumes, pvc.Metadata.Name)
	}
}

// TestImageRunsPythonPolicies: the image the Jobs run (k8s/Dockerfile,
// tagged as their image: field says) puts offload on PATH, as their
// command expects, and installs python3, so that an exec policy written in
// Python runs in the pods.
func TestImageRunsPythonPolicies(t *testing.T) {
	b, err := os.ReadFile("k8s/Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	stages := regexp.MustCompile(`(?m)^FROM `).FindAllStringIndex(s, -1)
	if len(stages) < 2 {
		t.Fatalf("k8s/Dockerfile has %d stages, want a build stage and the image", len(stages))
	}
	final := s[stages[len(stages)-1][0]:]
	if !regexp.MustCompile(`apt-get install[^\n]*(\\\n[^\n]*)*\bpython3\b`).MatchString(final) {
		t.Error("the image does not install python3: an exec policy in Python cannot run in the pods")
	}
	if !strings.Contains(final, "COPY --from=build /offload /usr/local/bin/offload") {
		t.Error("the image does not put the binary at /usr/local/bin/offload, on PATH")
	}
	tag := regexp.MustCompile(`docker build -f deploy/k8s/Dockerfile -t (\S+) \.`).FindStringSubmatch(s)
	if tag == nil {
		t.Fatal("k8s/Dockerfile does not say how to build it (docker build -f deploy/k8s/Dockerfile -t TAG .)")
	}
	for _, f := range []string{"k8s/shards-job.yaml", "k8s/merge-job.yaml"} {
		y, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(`(?m)^\s+image: ` + regexp.QuoteMeta(tag[1]) + `(\s|$)`).Match(y) {
			t.Errorf("%s does not run the image the Dockerfile builds (%s)", f, tag[1])
		}
		if c := readJob(t, f).Spec.Template.Spec.Containers[0].Command; len(c) == 0 || c[0] != "offload" {
			t.Errorf("%s: command %q, want offload on PATH", f, c)
		}
	}
}
