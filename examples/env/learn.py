#!/usr/bin/env python3
"""A contextual bandit that learns to dispatch on the default scenario, then
is compared with random, jsq-s and hybrid on `offload run`'s replicates.

    go build -o offload . && PYTHONPATH=python python3 examples/env/learn.py --offload ./offload

The context of a decision is the tasks each tier holds as the device sees
them (queued + busy + in transit, capped); the bandit keeps, per context
and tier, the mean latency of the tasks it sent there (told in each step's
info when they complete) and sends each task to the tier of least mean,
exploring ε-greedily while it trains. It minimises each task's own
latency, the quantity jsq-s and hybrid estimate from a model; it reads
nothing a real dispatcher could not know (not the task's size).

Training runs on replicates of another master seed than the evaluation's,
so the evaluation is on episodes the learner never saw: replicates 0..n-1
of the scenario's seed, exactly the runs of `offload run --seeds n`, so
the comparison is paired (common random numbers). Standard library only.
"""

import argparse
import csv
import math
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))

from offload_gym import VectorOffloadEnv  # noqa: E402

# Student t quantiles t(0.975, df) for df = 1..30; beyond, the normal's.
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042]


def mean_ci(xs):
    """The mean and the half-width of its 95% Student-t interval."""
    n = len(xs)
    m = math.fsum(xs) / n
    if n < 2:
        return m, float("nan")
    sd = math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (n - 1))
    return m, (T975[n - 2] if n - 1 <= len(T975) else 1.960) * sd / math.sqrt(n)


class Bandit:
    """Mean latency per (context, tier), ε-greedy on it."""

    def __init__(self, env, caps):
        self.k = len(env.tiers)
        self.idx = [(env.field(t + ".queued"), env.field(t + ".busy"), env.field(t + ".in_transit")) for t in env.tiers]
        self.caps = caps
        self.table = {}  # context -> [[count, mean latency] per tier]

    def context(self, obs):
        return tuple(min(int(obs[q] + obs[b] + obs[x]), c) for (q, b, x), c in zip(self.idx, self.caps))

    def row(self, ctx):
        r = self.table.get(ctx)
        if r is None:
            r = self.table[ctx] = [[0, 0.0] for _ in range(self.k)]
        return r

    def greedy(self, ctx):
        # An untried tier has mean 0: each is tried once per context first.
        row = self.row(ctx)
        best = 0
        for a in range(1, self.k):
            if row[a][1] < row[best][1]:
                best = a
        return best

    def learn(self, ctx, a, latency):
        cell = self.row(ctx)[a]
        cell[0] += 1
        cell[1] += (latency - cell[1]) / cell[0]


def train(args, rng):
    env = VectorOffloadEnv(args.train_envs, args.scenario, args.offload,
                           sets=["tasks=%d" % args.train_episode, "warmup=0"], use_numpy=False)
    caps = args.caps * len(env.tiers) if len(args.caps) == 1 else args.caps
    if len(caps) != len(env.tiers):
        env.close()
        sys.exit("--caps: %d values for %d tiers (%s): give one per tier, or one for all"
                 % (len(caps), len(env.tiers), ", ".join(env.tiers)))
    bandit = Bandit(env, caps)
    n = env.num_envs
    pending = [dict() for _ in range(n)]  # task id -> (context, tier), until it completes
    tasks = [0] * n                        # the id of the task each env decides next
    obs, _ = env.reset(seed=args.train_seed)
    steps, t0 = 0, time.perf_counter()
    while steps < args.train_steps:
        eps = max(args.eps_min, args.eps * (1 - steps / args.train_steps))
        acts = []
        for i in range(n):
            ctx = bandit.context(obs[i])
            a = rng.randrange(bandit.k) if rng.random() < eps else bandit.greedy(ctx)
            pending[i][tasks[i]] = (ctx, a)
            tasks[i] += 1
            acts.append(a)
        obs, _, term, _, info = env.step(acts)
        steps += n
        for i, task, lat in zip(info["env"], info["task"], info["latency"]):
            ctx, a = pending[i].pop(task)
            bandit.learn(ctx, a, lat)
        for i in range(n):
            if term[i]:  # the next step resets env i: its next task is task 0
                tasks[i] = 0
                pending[i].clear()
    env.close()
    return bandit, steps, time.perf_counter() - t0


def evaluate(args, bandit):
    """Each of n environments runs replicate i of the scenario's seed once,
    greedily; the mean latency of its measured tasks."""
    env = VectorOffloadEnv(args.seeds, args.scenario, args.offload, sets=args.eval_sets, use_numpy=False)
    n = env.num_envs
    obs, _ = env.reset(seed=env.hello["seed"])
    total, count = [0.0] * n, [0] * n
    done = [False] * n
    while not all(done):
        obs, _, term, _, info = env.step([bandit.greedy(bandit.context(o)) for o in obs])
        for i, lat, m in zip(info["env"], info["latency"], info["measured"]):
            if m and not done[i]:
                total[i] += lat
                count[i] += 1
        for i in range(n):
            done[i] = done[i] or term[i]
    env.close()
    return [t / c for t, c in zip(total, count)]


def baselines(args, names):
    """`offload run`'s mean latency per replicate for each named policy."""
    with tempfile.TemporaryDirectory() as d:
        cmd = [args.offload, "run", "-o", os.path.join(d, "r"), "--quiet", "--seeds", str(args.seeds),
               "--set", "policies=[%s]" % ", ".join(names)]
        if args.scenario:
            cmd += ["-f", args.scenario]
        for s in args.eval_sets:
            cmd += ["--set", s]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        out = {name: [None] * args.seeds for name in names}
        with open(os.path.join(d, "r", "runs.csv")) as f:
            for r in csv.DictReader(f):
                out[r["policy"]][int(r["seed"])] = float(r["mean_latency_s"])
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--offload", default="offload", help="the offload binary")
    p.add_argument("--scenario", default=None, help="scenario file (default: the embedded default)")
    p.add_argument("--train-steps", type=int, default=3_000_000)
    p.add_argument("--train-envs", type=int, default=64)
    p.add_argument("--train-episode", type=int, default=50_000, help="tasks per training episode")
    p.add_argument("--train-seed", type=int, default=1_000_001, help="master seed of the training episodes")
    p.add_argument("--eps", type=float, default=0.2, help="initial exploration rate, decayed linearly")
    p.add_argument("--eps-min", type=float, default=0.01)
    p.add_argument("--caps", type=int, nargs="+", default=[4, 12, 20],
                   help="context cap per tier (one value: the same for every tier)")
    p.add_argument("--seeds", type=int, default=10, help="evaluation replicates (offload run's)")
    p.add_argument("--tasks", type=int, default=None, help="measured tasks per evaluation episode (default: the scenario's)")
    p.add_argument("--rng-seed", type=int, default=1)
    args = p.parse_args()
    args.eval_sets = ["tasks=%d" % args.tasks] if args.tasks else []
    import random
    rng = random.Random(args.rng_seed)
    bandit, steps, secs = train(args, rng)
    print("trained on %d steps in %.1f s (%.0f steps/s); %d contexts seen" % (steps, secs, steps / secs, len(bandit.table)))
    t0 = time.perf_counter()
    learned = evaluate(args, bandit)
    print("evaluated on %d replicates in %.1f s" % (args.seeds, time.perf_counter() - t0))
    names = ["random", "jsq-s", "hybrid"]
    base = baselines(args, names)
    print()
    print("| policy | mean latency (s) | ± 95% CI | learned − policy (s) | ± 95% CI (paired) |")
    print("| --- | ---: | ---: | ---: | ---: |")
    m, ci = mean_ci(learned)
    print("| learned | %.5g | %.3g | | |" % (m, ci))
    for name in names:
        m, ci = mean_ci(base[name])
        d, dci = mean_ci([a - b for a, b in zip(learned, base[name])])
        print("| %s | %.5g | %.3g | %+.4g | %.3g |" % (name, m, ci, d, dci))


if __name__ == "__main__":
    main()
