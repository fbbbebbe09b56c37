"""Tests of offload_gym against a real `offload env` (standard library only;
the numpy paths run where numpy is installed).

Run from the repository root:

    go build -o offload . && OFFLOAD_BIN=./offload PYTHONPATH=python python3 -m unittest discover -s python/tests

(cmd's TestPythonEnv runs them under OFFLOAD_PYTHON=1, with its own binary
as offload). OFFLOAD_LONG=1 adds the slow ones: a pip install into a
virtual environment, and the examples' learner and leaderboard.
"""

import csv
import gc
import heapq
import math
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

from offload_gym import OffloadEnv, ServerError, VectorOffloadEnv

try:
    import numpy as np
except ImportError:
    np = None

OFFLOAD = os.environ.get("OFFLOAD_BIN", "offload")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LONG = os.environ.get("OFFLOAD_LONG") == "1"
SHORT = ["tasks=300", "warmup=30"]


def episode(env, choose, seed=None):
    """One episode of a single env: observations, rewards and the completed
    tasks' latencies by id."""
    obs, info = env.reset(seed=seed)
    trail, rewards, lat = [tuple(obs)], [], {}
    while True:
        obs, r, term, trunc, info = env.step(choose(obs))
        assert not trunc
        trail.append(tuple(obs))
        rewards.append(r)
        for t, l in zip(info["task"], info["latency"]):
            assert t not in lat
            lat[int(t)] = l
        if term:
            return trail, rewards, lat


class Rule:
    """A built-in deterministic rule over the observation, with the ties the
    built-in breaks at random counted (there must be none for the outcome to
    match exactly)."""

    def __init__(self, env):
        self.tiers = env.hello["tiers"]
        self.now = env.field("time")
        self.size = env.field("size")
        self.present = [(env.field(t + ".queued"), env.field(t + ".busy")) for t in env.tiers]
        self.ties = 0

    def argmin(self, xs):
        best = min(xs)
        if xs.count(best) > 1:
            self.ties += 1
        return xs.index(best)


class JSQS(Rule):
    """jsq-s: argmin D̄ + (q + b + 1)/(c μ), computed as internal/policies does."""

    def __init__(self, env):
        Rule.__init__(self, env)
        self.inv_cap = [1 / (float(t["servers"]) * t["mu"]) for t in self.tiers]

    def __call__(self, obs):
        return self.argmin([t["mean_delay"] + float(int(obs[q]) + int(obs[b]) + 1) * c
                            for t, (q, b), c in zip(self.tiers, self.present, self.inv_cap)])


class LWL(Rule):
    """lwl: argmin D̄ + max(0, F − t − D̄) + 1/μ over a workload vector of
    the sizes sent, as internal/policies does. It reads the task's size
    after its decision only (the observation marks it clairvoyant)."""

    def __init__(self, env):
        Rule.__init__(self, env)
        self.free = [[0.0] * t["servers"] for t in self.tiers]

    def __call__(self, obs):
        now = obs[self.now]
        i = self.argmin([t["mean_delay"] + max(0.0, f[0] - now - t["mean_delay"]) + 1 / t["mu"]
                         for t, f in zip(self.tiers, self.free)])
        t, f = self.tiers[i], self.free[i]
        heapq.heapreplace(f, max(now + t["mean_delay"], f[0]) + obs[self.size] / t["speed"])
        return i


def run_trace(policy, sets, seed, rep=0):
    """`offload run`'s per-task latencies for one policy and replicate."""
    with tempfile.TemporaryDirectory() as d:
        args = [OFFLOAD, "run", "-o", os.path.join(d, "r"), "--quiet", "--trace", "--seed", str(seed),
                "--seeds", str(rep + 1), "--set", "policies=[%s]" % policy]
        for s in sets:
            args += ["--set", s]
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(d, "r", "traces", "%s_%d.csv" % (policy, rep))) as f:
            return {int(r["id"]): float(r["latency_s"]) for r in csv.DictReader(f)}


class TestEnv(unittest.TestCase):

    def env(self, sets=SHORT, **kw):
        e = OffloadEnv(None, OFFLOAD, sets=sets, **kw)
        self.addCleanup(e.close)
        return e

    def test_hello_and_spaces(self):
        e = self.env()
        self.assertEqual(e.tiers, ["local", "edge", "cloud"])
        self.assertEqual(e.action_space.n, 3)
        self.assertEqual(e.observation_space.shape, (14,))
        self.assertEqual(e.fields[-1], "size")
        self.assertEqual(e.clairvoyant, frozenset([e.field("size")]))
        self.assertEqual(e.episode, {"tasks": 300, "warmup": 30, "duration": 0, "warmup_time": 0})
        clair = {b["label"]: b["clairvoyant"] for b in e.baselines}
        self.assertEqual(clair["oracle"], True)
        self.assertEqual(clair["hybrid"], False)
        obs, info = e.reset(seed=3)
        self.assertTrue(e.observation_space.contains(obs))
        self.assertEqual(info, {"seed": 3, "replicate": 0})
        with self.assertRaises(KeyError):
            e.field("fog.queued")

    def test_return_is_minus_total_sojourn(self):
        # The rewards sum n·Δt pieces; their rounding is ~1e-16 relative
        # each, so 1e-9 is loose for this length, tight for a lost piece.
        e = self.env()
        _, rewards, lat = episode(e, lambda obs: 1, seed=2)
        self.assertEqual(len(rewards), 330)
        self.assertEqual(sorted(lat), list(range(330)))
        total = math.fsum(lat.values())
        self.assertLess(abs(math.fsum(rewards) + total), 1e-9 * total)

    def test_deterministic(self):
        a, b = self.env(use_numpy=False), self.env()
        choose = lambda obs: int(obs[0] + obs[4] + obs[8]) % 3  # noqa: E731
        x, y = episode(a, choose, seed=5), episode(b, choose, seed=5)
        self.assertEqual(x[1], y[1])
        self.assertEqual(x[0], [tuple(o) for o in y[0]])
        z = episode(a, choose)  # the next replicate differs
        self.assertNotEqual(x[1], z[1])

    def test_jsqs_and_lwl_reproduce_offload_run(self):
        # Item 3: a Python agent applying a built-in rule to the
        # observations gives every task the latency `offload run` gives it.
        sets = ["tasks=4000", "warmup=400"]
        for make, name in ((JSQS, "jsq-s"), (LWL, "lwl")):
            e = self.env(sets)
            rule = make(e)
            _, _, lat = episode(e, rule, seed=9)
            self.assertEqual(rule.ties, 0, "%s: a tie, which the built-in breaks at random" % name)
            want = run_trace(name, sets, seed=9)
            self.assertGreaterEqual(len(want), 4000)
            for task, l in want.items():
                self.assertEqual(lat[task], l, "%s, task %d" % (name, task))

    def test_measured_is_offload_runs(self):
        e = self.env()
        obs, _ = e.reset(seed=1)
        measured = {}
        term = False
        while not term:
            obs, _, term, _, info = e.step(2)
            measured.update(zip(info["task"], info["measured"]))
        self.assertEqual([t for t, m in sorted(measured.items()) if not m], list(range(30)))

    def test_bad_actions(self):
        e = self.env()
        e.reset(seed=1)
        for a, err, msg in ((3, ValueError, "out of range"), (-1, ValueError, "out of range"),
                            (1.0, TypeError, "not an integer"), ("1", TypeError, "not an integer"),
                            (True, TypeError, "not an integer"), (None, TypeError, "not an integer")):
            with self.assertRaises(err) as c:
                e.step(a)
            self.assertIn(msg, str(c.exception))
            self.assertIn("allowed: an integer in 0..2 (a tier's index: 0 local, 1 edge, 2 cloud)", str(c.exception))
        e.step(1)  # still usable: nothing was sent
        if np is not None:
            e.step(np.int64(2))
            with self.assertRaises(TypeError):
                e.step(np.float64(1))
        v = VectorOffloadEnv(2, None, OFFLOAD, sets=SHORT)
        self.addCleanup(v.close)
        v.reset(seed=1)
        for acts, err in (([0], ValueError), ([0, 3], ValueError), ([0, 1.5], TypeError), ([0, True], TypeError),
                          ([0, "a"], TypeError)):
            with self.assertRaises(err, msg=repr(acts)):
                v.step(acts)
        if np is not None:
            with self.assertRaises(TypeError):
                v.step(np.array([0.0, 1.0]))
            with self.assertRaises(ValueError):
                v.step(np.array([0, 5]))
        v.step([0, 1])

    def test_server_side_error(self):
        # A client that skips the checks gets the server's own message; the
        # server exits with status 2 and says it on its stderr too.
        e = self.env()
        e.reset(seed=1)
        e._srv.send(b"S\0\0\0\x04\0\0\0\x07\0\0\0")
        with self.assertRaises(ServerError) as c:
            e._srv.batch()
        self.assertIn("action 7: allowed 0..2", str(c.exception))
        self.assertEqual(e._srv.proc.returncode, 2)

    def test_bad_scenario(self):
        with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
            f.write("tiers: [{name: edge, kind: edge, servers: 0, speed: 1}]\narrivals: {rate: 1}\ntasks: 10\n")
        self.addCleanup(os.unlink, f.name)
        with self.assertRaises(ServerError) as c:
            OffloadEnv(f.name, OFFLOAD)
        self.assertIn("status 2", str(c.exception))
        self.assertIn("servers", str(c.exception))
        with self.assertRaises(ServerError) as c:
            OffloadEnv(None, os.path.join(ROOT, "no-such-offload"))
        self.assertIn("offload=", str(c.exception))

    def test_step_after_end(self):
        e = self.env(["tasks=3", "warmup=0"])
        with self.assertRaises(RuntimeError):
            e.step(0)
        episode(e, lambda obs: 0, seed=1)
        with self.assertRaises(RuntimeError):
            e.step(0)

    def test_vector_seeds_and_autoreset(self):
        for use_numpy in ([False, True] if np is not None else [False]):
            sets = ["tasks=20", "warmup=0"]
            v = VectorOffloadEnv(3, None, OFFLOAD, sets=sets, use_numpy=use_numpy)
            self.addCleanup(v.close)
            obs, info = v.reset(seed=4)
            self.assertEqual(list(info["replicate"]), [0, 1, 2])
            rewards = [[], [], []]
            for _ in range(20):
                obs, rew, term, trunc, info = v.step([1, 2, 0])
                for i in range(3):
                    rewards[i].append(float(rew[i]))
            self.assertEqual(list(term), [True] * 3)
            obs, rew, term, trunc, info = v.step([0, 0, 0])  # autoreset: actions ignored
            self.assertEqual(list(info["replicate"]), [3, 4, 5])
            self.assertEqual(list(rew), [0, 0, 0])
            self.assertEqual(list(term), [False] * 3)
            self.assertEqual(len(info["task"]), 0)
            # Environment i's episode is replicate i of seed 4, as a lone
            # environment's i-th episode after reset(seed=4).
            lone = self.env(sets)
            for i, act in enumerate([1, 2, 0]):
                _, r, _ = episode(lone, lambda obs: act, seed=4 if i == 0 else None)
                self.assertEqual(r, rewards[i])
            first = tuple(obs[1])
            lone_obs, linfo = lone.reset()  # replicate 3 of the lone env is env 0's next
            self.assertEqual(linfo["replicate"], 3)
            self.assertEqual(tuple(lone_obs), tuple(obs[0]))
            self.assertNotEqual(first, tuple(lone_obs))
            obs, info = v.reset(seed=[7, 8, 9])
            self.assertEqual(list(info["seed"]), [7, 8, 9])
            self.assertEqual(list(info["replicate"]), [0, 0, 0])

    def test_vector_info_is_per_env(self):
        v = VectorOffloadEnv(4, None, OFFLOAD, sets=SHORT, use_numpy=False)
        self.addCleanup(v.close)
        v.reset(seed=2)
        seen = {}
        for _ in range(330):
            _, _, _, _, info = v.step([0, 1, 2, 1])
            for env, task, l in zip(info["env"], info["task"], info["latency"]):
                seen.setdefault(env, []).append(task)
        self.assertEqual(sorted(seen), [0, 1, 2, 3])
        for env, tasks in seen.items():
            self.assertEqual(sorted(tasks), list(range(330)), "env %d" % env)

    @unittest.skipIf(np is None, "numpy is not installed")
    def test_numpy_and_lists_agree(self):
        a = VectorOffloadEnv(3, None, OFFLOAD, sets=SHORT, use_numpy=True)
        b = VectorOffloadEnv(3, None, OFFLOAD, sets=SHORT, use_numpy=False)
        self.addCleanup(a.close)
        self.addCleanup(b.close)
        x, y = a.reset(seed=6), b.reset(seed=6)
        self.assertEqual(x[0].tolist(), [list(o) for o in y[0]])
        for s in range(100):
            acts = [s % 3, (s + 1) % 3, 2]
            x, y = a.step(np.array(acts)), b.step(acts)
            self.assertEqual(x[0].tolist(), [list(o) for o in y[0]])
            self.assertEqual(x[1].tolist(), y[1])
            self.assertEqual(x[2].tolist(), y[2])
            for key in ("task", "latency", "measured", "env"):
                self.assertEqual(list(x[4][key]), list(y[4][key]), key)


class TestPackaging(unittest.TestCase):

    def test_wheel(self):
        # The in-tree backend's wheel: the package, its metadata with
        # pyproject's version (the package's __version__), a RECORD whose
        # hashes match.
        import base64
        import hashlib
        import zipfile
        import offload_gym
        sys.path.insert(0, os.path.join(ROOT, "python", "_build"))
        try:
            import offload_gym_build as backend
        finally:
            sys.path.pop(0)
        self.assertEqual(backend.get_requires_for_build_wheel(), [])
        with tempfile.TemporaryDirectory() as d:
            name = backend.build_wheel(d)
            self.assertEqual(name, "offload_gym-%s-py3-none-any.whl" % offload_gym.__version__)
            with zipfile.ZipFile(os.path.join(d, name)) as z:
                names = set(z.namelist())
                info = "offload_gym-%s.dist-info/" % offload_gym.__version__
                self.assertTrue({"offload_gym/__init__.py", "offload_gym/env.py", info + "METADATA", info + "RECORD"} <= names)
                self.assertIn("Version: %s\n" % offload_gym.__version__, z.read(info + "METADATA").decode())
                for line in z.read(info + "RECORD").decode().splitlines():
                    path, digest, size = line.split(",")
                    if digest:
                        data = z.read(path)
                        want = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                        self.assertEqual((digest, int(size)), ("sha256=" + want, len(data)), path)


def _state(pid):
    """A process's state letter, None once it is gone (a zombie counts as
    gone: it has exited)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            st = f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None
    return None if st in ("Z", "X") else st


@unittest.skipUnless(os.path.isdir("/proc"), "needs /proc")
class TestNoServerLeft(unittest.TestCase):

    def wait_gone(self, pid):
        # The server exits on the end of its stdin; 30 s is generous and
        # excludes its start-up, which finished before its hello.
        deadline = time.monotonic() + 30
        while _state(pid) is not None and time.monotonic() < deadline:
            time.sleep(0.02)
        self.assertIsNone(_state(pid), "server %d still running" % pid)

    def test_close_and_gc(self):
        e = OffloadEnv(None, OFFLOAD, sets=SHORT)
        pid = e._srv.proc.pid
        e.reset()
        e.close()
        self.wait_gone(pid)
        e = OffloadEnv(None, OFFLOAD, sets=SHORT)
        pid = e._srv.proc.pid
        del e
        gc.collect()
        self.wait_gone(pid)

    def test_killed_python_leaves_no_server(self):
        code = ("import os, sys; from offload_gym import OffloadEnv; e = OffloadEnv(None, %r, sets=%r); e.reset();"
                "print(e._srv.proc.pid, flush=True); os.kill(os.getpid(), %d)" % (OFFLOAD, SHORT, signal.SIGKILL))
        p = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
        self.assertEqual(p.returncode, -signal.SIGKILL)
        self.wait_gone(int(p.stdout))

    def test_exit_without_close(self):
        code = ("from offload_gym import OffloadEnv; e = OffloadEnv(None, %r, sets=%r); e.reset();"
                "print(e._srv.proc.pid, flush=True)" % (OFFLOAD, SHORT))
        p = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, check=True)
        self.wait_gone(int(p.stdout))


@unittest.skipUnless(LONG, "long: set OFFLOAD_LONG=1")
class TestLong(unittest.TestCase):

    def test_pip_install_offline(self):
        # `pip install --no-build-isolation ./python` in a fresh venv, no
        # index: the in-tree backend needs nothing installed.
        with tempfile.TemporaryDirectory() as d:
            venv = os.path.join(d, "venv")
            subprocess.run([sys.executable, "-m", "venv", venv], check=True)
            py = os.path.join(venv, "bin", "python")
            subprocess.run([py, "-m", "pip", "install", "--quiet", "--no-index", "--no-build-isolation",
                            os.path.join(ROOT, "python")], check=True, cwd=d)
            env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
            out = subprocess.run([py, "-c", "import offload_gym as g, sys; e = g.OffloadEnv(None, %r, sets=%r);"
                                  "print(e.reset(seed=1)[1]['replicate']); e.close(); print(g.__file__)"
                                  % (OFFLOAD, SHORT)], check=True, cwd=d, env=env, stdout=subprocess.PIPE, text=True)
            first, where = out.stdout.split()
            self.assertEqual(first, "0")
            self.assertTrue(where.startswith(venv), where)

    def test_learner_example(self):
        # The worked example trains and reports (quick settings here; the
        # figures in docs/env.md come from its defaults).
        out = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "env", "learn.py"), "--offload", OFFLOAD,
                              "--train-steps", "100000", "--tasks", "5000", "--seeds", "3"],
                             check=True, stdout=subprocess.PIPE, text=True).stdout
        for name in ("learned", "random", "jsq-s", "hybrid"):
            self.assertIn("| " + name, out)

    def test_leaderboard(self):
        out = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "env", "leaderboard.py"), "--offload", OFFLOAD,
                              "--seeds", "2"], check=True, stdout=subprocess.PIPE, text=True).stdout
        self.assertIn("Clairvoyant", out)
        self.assertIn("| oracle", out)


if __name__ == "__main__":
    unittest.main()
