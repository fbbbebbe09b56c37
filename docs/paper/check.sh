#!/usr/bin/env bash
# Re-runs the paper-scale reproduction and checks that every published
# summary under docs/paper is byte-identical to the new run's (decision/
# and emulate/ are left out: decision_ns is wall-clock, and the emulation
# runs on wall-clock timers, with --emulate only). Usage: docs/paper/check.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-$(mktemp -d)/paper}
go run . reproduce --scale paper -o "$out" --quiet >/dev/null
status=0
for f in sweep-load/summary.csv edge-capacity/summary.csv mape/summary.csv mape/mape_summary.csv \
         burst/summary.csv burst/bursts.csv */scenario.yaml; do
  for p in docs/paper/$f; do
    rel=${p#docs/paper/}
    case $rel in emulate/*) continue ;; esac
    if cmp -s "$p" "$out/$rel"; then echo "same    $rel"; else echo "DIFFERS $rel"; status=1; fi
  done
done
exit $status
