#!/usr/bin/env python3
"""A learning policy: ε-greedy over the tiers on the running mean latency
each tier earned, as the done messages report it.

With probability ε (0.05) it explores a uniformly random tier, otherwise it
exploits the tier of least mean latency so far (a tier not tried yet goes
first). It answers each decision with its own prediction, the chosen
tier's running mean, as "pred_latency", so that runs.csv has its MAPE. It
learns from every completed task, the warmup's included. Its randomness
comes from the start message's seed only.

It ignores the queues it is shown: a bandit learns what a tier costs on
average, not what it costs now, so it does well when one tier is plainly
best and poorly when the best tier changes with the load.
"""
import json
import random
import sys

EPSILON = 0.05

rng = None
count = []
total = []

for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "done":
        i = msg["tier"]
        count[i] += 1
        total[i] += msg["latency"]
    elif kind == "decide":
        untried = [i for i, n in enumerate(count) if n == 0]
        if untried:
            tier = untried[0]
        elif rng.random() < EPSILON:
            tier = rng.randrange(len(count))
        else:
            tier = min(range(len(count)), key=lambda i: total[i] / count[i])
        answer = {"tier": tier}
        if count[tier] > 0:
            answer["pred_latency"] = total[tier] / count[tier]
        print(json.dumps(answer), flush=True)
    elif kind == "start":
        rng = random.Random(msg["seed"])
        count = [0] * len(msg["tiers"])
        total = [0.0] * len(msg["tiers"])
        print(json.dumps({"feedback": True}), flush=True)
    elif kind == "end":
        break
