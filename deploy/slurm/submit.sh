#!/usr/bin/env bash
# Submits a sharded offload command to Slurm: a job array of K shards
# (offload-array.sbatch) and the merge (merge.sbatch), which waits for the
# whole array to succeed (afterok) and is cancelled if a shard fails.
#
#   deploy/slurm/submit.sh K OUT [EXPERIMENT [FLAGS...]]
#   deploy/slurm/submit.sh 8 /scratch/sl sweep-load --seeds 20
#
# It prints the two job ids; the results land in OUT/merged. The jobs run in
# the folder submit.sh is called from (their logs too), and export its
# environment (OFFLOAD names the binary, default offload on PATH).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -lt 2 ] || ! [[ $1 =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 K OUT [EXPERIMENT [FLAGS...]]  (K ≥ 1 shards)" >&2
  exit 2
fi
K=$1 out=$2
shift 2
mkdir -p "$out"
out=$(cd "$out" && pwd)
array=$(sbatch --parsable --array=0-$((K - 1)) "$here/offload-array.sbatch" "$out" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --dependency=afterok:"$array" --kill-on-invalid-dep=yes "$here/merge.sbatch" "$out")
merge=${merge%%;*}
echo "array job $array: $K shards into $out/shard-*"
echo "merge job $merge: into $out/merged once every shard has succeeded"
