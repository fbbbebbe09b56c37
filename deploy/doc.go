// Package deploy holds offload's cluster deployments, which are files, not
// Go: deploy/slurm (a job array of shards, the merge chained after it, and
// test.sh, which runs them on a one-node Slurm cluster) and deploy/k8s (an
// Indexed Job of shards, a merge Job and the image they run). Its test
// checks that the Kubernetes manifests and the Slurm scripts run the same
// command with the same K and paths, and that the image has offload on
// PATH and python3, since nothing else ties them together. The user's
// documentation is docs/cluster.md.
package deploy
