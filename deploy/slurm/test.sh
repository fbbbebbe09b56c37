#!/usr/bin/env bash
# Tests the Slurm deployment for real: starts a one-node Slurm cluster on
# this machine (slurmctld and slurmd as root, no systemd, auth/none, state
# in a temporary folder), submits a small sharded sweep with submit.sh (K=3
# shards and the merge), checks the merged runs.csv and summary.csv against
# a single-machine run with cmp, then removes a shard and reruns it with the
# sbatch line that offload merge prints. Stops the daemons it started (by
# their pid files) and removes everything on exit.
#
# Needs root and Debian's slurm-wlm (apt-get install -y slurm-wlm); takes
# about 15 s.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
start=$(date +%s)
[ "$(id -u)" = 0 ] || { echo "test.sh: needs root (it starts slurmctld and slurmd)" >&2; exit 1; }
for c in slurmctld slurmd sbatch scontrol sinfo go; do
  command -v "$c" >/dev/null || { echo "test.sh: $c not found (apt-get install -y slurm-wlm)" >&2; exit 1; }
done

tmp=$(mktemp -d /tmp/offload-slurm.XXXXXX)
chmod 755 "$tmp"
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
  rm -rf "$tmp"
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
echo "== slurm test passed in $(($(date +%s) - start)) s"
