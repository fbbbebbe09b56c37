#!/usr/bin/env python3
"""Environment steps per second of OffloadEnv and VectorOffloadEnv, the
server and this process together (docs/env.md, "Speed").

    go build -o offload . && PYTHONPATH=python python3 python/bench.py --offload ./offload

The agent is a fixed cycle of actions (0, 1, 2, ...), so that what is
measured is the environment, not a policy. Each figure is the best of
--repeat timed runs of --seconds each after a short warm-up; episodes of
the default scenario are long (210,000 steps), so autoreset is rare.
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from offload_gym import OffloadEnv, VectorOffloadEnv  # noqa: E402


def bench_single(args, use_numpy):
    env = OffloadEnv(args.scenario, args.offload, use_numpy=use_numpy)
    k = len(env.tiers)
    best = 0.0
    try:
        env.reset(seed=1)
        for _ in range(args.repeat + 1):  # the first is the warm-up
            steps, t0 = 0, time.perf_counter()
            while time.perf_counter() - t0 < args.seconds:
                for _ in range(1000):
                    _, _, term, _, _ = env.step(steps % k)
                    steps += 1
                    if term:
                        env.reset()
            best = max(best, steps / (time.perf_counter() - t0))
    finally:
        env.close()
    return best


def bench_vector(args, n, use_numpy):
    env = VectorOffloadEnv(n, args.scenario, args.offload, use_numpy=use_numpy)
    k = len(env.tiers)
    if env._np is not None:
        cycle = [env._np.full(n, a, dtype=env._np.int32) for a in range(k)]
    else:
        cycle = [[a] * n for a in range(k)]
    best = 0.0
    try:
        env.reset(seed=1)
        for _ in range(args.repeat + 1):
            batches, t0 = 0, time.perf_counter()
            while time.perf_counter() - t0 < args.seconds:
                for _ in range(100):
                    env.step(cycle[batches % k])
                    batches += 1
            best = max(best, batches * n / (time.perf_counter() - t0))
    finally:
        env.close()
    return best


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--offload", default="offload", help="the offload binary")
    p.add_argument("--scenario", default=None, help="scenario file (default: the embedded one)")
    p.add_argument("--envs", type=int, nargs="*", default=[1, 8, 64], help="vector sizes to measure besides the single env")
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    try:
        import numpy  # noqa: F401
        modes = [True, False]
    except ImportError:
        modes = [False]
    print("| environment | numpy | steps/s |")
    print("| --- | --- | ---: |")
    for use_numpy in modes:
        yes = "yes" if use_numpy else "no"
        print("| OffloadEnv | %s | %.0f |" % (yes, bench_single(args, use_numpy)), flush=True)
        for n in args.envs:
            print("| VectorOffloadEnv(%d) | %s | %.0f |" % (n, yes, bench_vector(args, n, use_numpy)), flush=True)


if __name__ == "__main__":
    main()
