#!/usr/bin/env python3
"""Power of two choices: sample two distinct tiers uniformly and send the
task to the one with the shorter expected delay, D̄ + (q + b + 1)/(c·μ),
on what the view shows (Mitzenmacher, IEEE TPDS 12(10), 2001).

Its randomness comes from the seed of the start message only, so its runs
are reproducible and identical for any -j. It declines done messages.
"""
import json
import random
import sys

rng = None
tiers = []

for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "start":
        rng = random.Random(msg["seed"])
        tiers = msg["tiers"]
        print(json.dumps({"feedback": False}), flush=True)
    elif kind == "decide":
        best, best_score = None, None
        for i in rng.sample(range(len(tiers)), min(2, len(tiers))):
            t, s = tiers[i], msg["tiers"][i]
            score = t["mean_delay"] + (s["queued"] + s["busy"] + 1) / (t["servers"] * t["mu"])
            if best is None or score < best_score:
                best, best_score = i, score
        print(json.dumps({"tier": best}), flush=True)
    elif kind == "end":
        break
