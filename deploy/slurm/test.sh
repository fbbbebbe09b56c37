#!/usr/bin/env bash
# Tests the Slurm deployment for real: starts a one-node Slurm cluster on
# this machine (slurmctld and slurmd as root, no systemd, auth/none, state
# in a temporary folder), submits a small sharded sweep with submit.sh (K=3
# shards and the merge), checks the merged runs.csv and summary.csv against
# a single-machine run with cmp, then removes a shard and reruns it with the
# sbatch line that offload merge prints. Stops the daemons it started (by
# their pid files) and removes everything on exit. Then a study of one's
# own — a scenario file, the trace it replays and a Python exec policy, in
# a folder — runs sharded twice: read from a path every node sees (the
# shared-path way of docs/cluster.md), and sent to node-local storage with
# sbcast inside an allocation; each merge must equal the study run on one
# machine.
#
# Needs root, Debian's slurm-wlm (apt-get install -y slurm-wlm) and
# python3; takes about 30 s.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
start=$(date +%s)
[ "$(id -u)" = 0 ] || { echo "test.sh: needs root (it starts slurmctld and slurmd)" >&2; exit 1; }
for c in slurmctld slurmd sbatch scontrol sinfo salloc srun sbcast python3 go; do
  command -v "$c" >/dev/null || { echo "test.sh: $c not found (apt-get install -y slurm-wlm)" >&2; exit 1; }
done

tmp=$(mktemp -d /tmp/offload-slurm.XXXXXX)
chmod 755 "$tmp"
# The node-local folder the sbcast step sends the study to (on this one
# node, a folder of this machine).
local_dir=/tmp/offload-sbcast-$$
stop() {
  for d in slurmd slurmctld; do
    if [ -s "$tmp/$d.pid" ]; then
      pid=$(cat "$tmp/$d.pid")
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
    fi
  done
}
cleanup() {
  status=$?
  stop
  if [ "$status" != 0 ]; then
    for f in "$tmp"/*.log "$tmp"/run/*.out; do
      [ -f "$f" ] && { echo "--- $f"; tail -n 20 "$f"; }
    done
  fi
  rm -rf "$tmp" "$local_dir"
  exit "$status"
}
trap cleanup EXIT

host=$(hostname -s)
# Ports of our own, so that the test neither meets nor disturbs a Slurm
# that already runs here: below the kernel's range of ephemeral ports (an
# outgoing connection may hold any port in it, and slurmctld then dies of
# "Address already in use"), and not in use now where ss can tell.
read -r eph _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || eph=32768
in_use() { command -v ss >/dev/null && ss -Htan "( sport = :$1 )" 2>/dev/null | grep -q .; }
for _ in $(seq 50); do
  ctl=$((10000 + RANDOM % (eph - 10002)))
  in_use "$ctl" || in_use "$((ctl + 1))" || break
done
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/run"
cat > "$tmp/slurm.conf" <<CONF
ClusterName=offloadtest
SlurmctldHost=$host
SlurmctldPort=$ctl
SlurmdPort=$((ctl + 1))
AuthType=auth/none
CredType=cred/none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MinJobAge=600
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf

echo "== build offload"
(cd "$repo" && go build -o "$tmp/offload" .)
export OFFLOAD=$tmp/offload

echo "== start slurmctld and slurmd ($host, port $ctl)"
slurmctld -c -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
# Each query bounded, and the wait cut short if slurmctld has died (a port
# taken after all): a query of a dead controller retries for many seconds.
alive() { [ -s "$tmp/slurmctld.pid" ] && kill -0 "$(cat "$tmp/slurmctld.pid")" 2>/dev/null; }
for i in $(seq 100); do
  timeout 3 sinfo -h -o %T 2>/dev/null | grep -q idle && break
  if [ "$i" -ge 10 ] && ! alive; then
    echo "test.sh: slurmctld is not running (its log follows)" >&2
    exit 1
  fi
  sleep 0.2
done
timeout 3 sinfo -h -o %T | grep -q idle || { echo "test.sh: the node never became idle" >&2; exit 1; }

# A small sweep: 2 replicates × 2000 tasks, 2 rates, the 8 policies: 32 runs.
args=(run --seeds 2 --tasks 2000 --set 'sweep={param: arrivals.rate, values: [40, 120]}')
K=3

echo "== single-machine reference"
"$OFFLOAD" "${args[@]}" --quiet -o "$tmp/reference" >/dev/null

# wait_job ID: waits for a job (every task of an array) to end, and fails
# unless it completed.
wait_job() {
  for _ in $(seq 600); do
    states=$(scontrol -o show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | sort -u || true)
    if [ -n "$states" ] && ! grep -qE 'PENDING|RUNNING|CONFIGURING|COMPLETING' <<<"$states"; then
      if [ "$states" = "JobState=COMPLETED" ]; then return 0; fi
      echo "test.sh: job $1 ended $states" >&2
      scontrol -o show job "$1" >&2
      return 1
    fi
    if scontrol -o show job "$1" 2>/dev/null | grep -q 'Reason=DependencyNeverSatisfied'; then
      echo "test.sh: job $1 will never run: a job it depends on failed" >&2
      return 1
    fi
    sleep 0.2
  done
  echo "test.sh: job $1 did not end within 120 s" >&2
  return 1
}

echo "== submit.sh $K shards and the merge"
cd "$tmp/run"
submitted=$("$here/submit.sh" "$K" "$tmp/out" "${args[@]}")
echo "$submitted"
array=$(sed -n 's/^array job \([0-9]*\):.*/\1/p' <<<"$submitted")
merge=$(sed -n 's/^merge job \([0-9]*\):.*/\1/p' <<<"$submitted")
wait_job "$array"
wait_job "$merge"
for f in runs.csv summary.csv; do
  cmp "$tmp/reference/$f" "$tmp/out/merged/$f"
  echo "merged $f = single-machine $f ($(wc -l <"$tmp/out/merged/$f") lines)"
done
for k in $(seq 0 $((K - 1))); do
  grep -q "\"K\": $K" "$tmp/out/shard-$k/manifest.json" || { echo "test.sh: shard-$k's manifest lacks K=$K" >&2; exit 1; }
done

echo "== a lost shard: merge names it and the line that reruns it"
rm -rf "$tmp/out/shard-1"
if msg=$("$OFFLOAD" merge -o "$tmp/out/merged2" "$tmp/out"/shard-* 2>&1); then
  echo "test.sh: merge accepted a missing shard" >&2; exit 1
fi
echo "$msg"
line=$(grep -o 'sbatch --array=.*' <<<"$msg")
[ -e "$tmp/out/merged2" ] && { echo "test.sh: a refused merge wrote $tmp/out/merged2" >&2; exit 1; }
ln -s "$repo/deploy" "$tmp/run/deploy" # the line names deploy/slurm/… from the repository's root
rerun=$(eval "${line/sbatch/sbatch --parsable}")
wait_job "${rerun%%;*}"
"$OFFLOAD" merge -o "$tmp/out/merged2" "$tmp/out"/shard-* >/dev/null
for f in runs.csv summary.csv; do
  cmp "$tmp/reference/$f" "$tmp/out/merged2/$f"
  echo "after the rerun: merged $f = single-machine $f"
done
echo "== a study of one's own: scenario, trace and Python policy from a shared path"
study=$tmp/study
mkdir -p "$study"
awk 'BEGIN { print "arrival_s,size"; for (i = 0; i < 3000; i++) printf "%g,%g\n", 0.02 * i, 0.4 + (i % 7) / 5 }' >"$study/trace.csv"
cp "$repo/examples/policies/edge_first.py" "$study/"
cat >"$study/scenario.yaml" <<'YAML'
name: my-study
seed: 7
seeds: 2
warmup: 200
trace: {file: trace.csv, rate: 50}
workload: {large_quantile: 0.9}
tiers:
  - {name: local, kind: local, servers: 1, speed: 10}
  - {name: edge, kind: edge, servers: 4, speed: 25, delay: {mean: 0.005, cv: 0.2}}
  - {name: cloud, kind: cloud, servers: 16, speed: 50, delay: {mean: 0.060, cv: 0.2}}
policies: [hybrid, jsq-s, {name: exec, as: edge-first-py, command: [python3, edge_first.py]}]
YAML
"$OFFLOAD" run -f "$study/scenario.yaml" --quiet -o "$tmp/study-reference" >/dev/null
submitted=$("$here/submit.sh" 2 "$tmp/study-out" run -f "$study/scenario.yaml")
wait_job "$(sed -n 's/^array job \([0-9]*\):.*/\1/p' <<<"$submitted")"
wait_job "$(sed -n 's/^merge job \([0-9]*\):.*/\1/p' <<<"$submitted")"
cmp "$tmp/study-reference/runs.csv" "$tmp/study-out/merged/runs.csv"
echo "merged runs.csv of the study = single-machine runs.csv ($(wc -l <"$tmp/study-out/merged/runs.csv") lines)"

echo "== the same study, its files sent to node-local storage with sbcast"
# sbcast copies a file from the node that runs it to every node of the
# allocation; the shards then read the study there, and so does the merge
# (which rebuilds the plan from the trace beside the shards' -f).
salloc -n 2 --quiet bash -c "
  set -e
  srun -N \$SLURM_JOB_NUM_NODES -n \$SLURM_JOB_NUM_NODES mkdir -p $local_dir
  for f in $study/*; do sbcast -f \"\$f\" $local_dir/\$(basename \"\$f\"); done
  srun -n 2 bash -c '\"$OFFLOAD\" run -f $local_dir/scenario.yaml --shard \$SLURM_PROCID/\$SLURM_NTASKS -j 1 --quiet -o $tmp/sbcast-out/shard-\$SLURM_PROCID >/dev/null'
  srun -n 1 \"$OFFLOAD\" merge -o $tmp/sbcast-out/merged $tmp/sbcast-out/shard-0 $tmp/sbcast-out/shard-1 >/dev/null
  srun -N \$SLURM_JOB_NUM_NODES -n \$SLURM_JOB_NUM_NODES rm -rf $local_dir
"
cmp "$tmp/study-reference/runs.csv" "$tmp/sbcast-out/merged/runs.csv"
echo "merged runs.csv of the sbcast study = single-machine runs.csv"
echo "== slurm test passed in $(($(date +%s) - start)) s"
