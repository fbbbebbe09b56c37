#!/usr/bin/env python3
"""The leaderboard of the built-in policies on experiments/park.yaml, for
learners to beat (docs/env.md).

    go build -o offload . && PYTHONPATH=python python3 examples/env/leaderboard.py --offload ./offload

It runs `offload run -f experiments/park.yaml` (every replicate of every
built-in policy the scenario lists) and prints two Markdown tables ranked
by mean sojourn time: the policies that see what a real dispatcher sees,
and apart from them the clairvoyant ones, which know each task's size (as
the "size" field of the observation does). The environment's return of an
episode is minus its total sojourn time: minus tasks × the mean here.
Which baseline is clairvoyant comes from the server's hello, not from a
list kept here.
"""

import argparse
import csv
import os
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "python"))

from offload_gym import OffloadEnv  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--offload", default="offload", help="the offload binary")
    p.add_argument("--scenario", default=os.path.join(ROOT, "experiments", "park.yaml"))
    p.add_argument("--seeds", type=int, default=None, help="replicates (default: the scenario's)")
    p.add_argument("--set", action="append", default=[], help="a --set override for offload run and the environment")
    p.add_argument("-o", "--out", default=None, help="keep offload run's folder here (default: a temporary one)")
    args = p.parse_args()

    env = OffloadEnv(args.scenario, args.offload, sets=args.set)
    baselines = env.baselines
    tasks = env.episode["tasks"] + env.episode["warmup"]
    env.close()

    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or os.path.join(tmp, "park")
        cmd = [args.offload, "run", "-f", args.scenario, "-o", out, "--quiet"]
        if args.seeds:
            cmd += ["--seeds", str(args.seeds)]
        for s in args.set:
            cmd += ["--set", s]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(out, "summary.csv")) as f:
            rows = {r["policy"]: r for r in csv.DictReader(f)}

    runs = next(iter(rows.values()))["runs"]
    shown = ["offload", "run", "-f", os.path.relpath(args.scenario)] + cmd[cmd.index("--quiet") + 1:]
    print("%s: %s replicates of %d tasks each (`%s`).\n" % (os.path.basename(args.scenario), runs, tasks, " ".join(shown)))
    for title, clair in (("Dispatchers (the observation without its size field)", False),
                         ("Clairvoyant (they know each task's size)", True)):
        ranked = sorted((b for b in baselines if b["clairvoyant"] == clair and b["label"] in rows),
                        key=lambda b: float(rows[b["label"]]["mean_latency_s"]))
        print("%s\n" % title)
        print("| rank | policy | mean sojourn | ± 95% CI | return per episode | P95 sojourn |")
        print("| ---: | --- | ---: | ---: | ---: | ---: |")
        for rank, b in enumerate(ranked, 1):
            r = rows[b["label"]]
            m = float(r["mean_latency_s"])
            print("| %d | %s | %.1f | %.1f | %.4g | %.0f |" % (rank, b["label"], m, float(r["mean_latency_s_ci95"]),
                                                             -tasks * m, float(r["p95_latency_s"])))
        print()


if __name__ == "__main__":
    main()
