#!/usr/bin/env python3
"""The smallest correct offload policy: every task to the first edge tier.

It speaks docs/policy-protocol.md (version 1): one JSON object per line on
stdin, one answer per line on stdout, flushed. It declines done messages,
which it would not use. Its runs equal the built-in edge-first's.
"""
import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        kinds = [t["kind"] for t in msg["tiers"]]
        edge = kinds.index("edge")  # the scenario must have an edge tier
        print(json.dumps({"feedback": False}), flush=True)
    elif msg["type"] == "decide":
        print(json.dumps({"tier": edge}), flush=True)
    elif msg["type"] == "end":
        break
