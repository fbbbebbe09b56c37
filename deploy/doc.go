// Package deploy holds offload's cluster deployments, which are files, not
// Go: deploy/slurm (a job array of shards, the merge chained after it, and
// test.sh, which runs them on a one-node Slurm cluster) and deploy/k8s (an
// Indexed Job of shards and a merge Job). Its test checks that the
// Kubernetes manifests and the Slurm scripts run the same command with the
// same K and paths, since nothing else ties them together.
package deploy
