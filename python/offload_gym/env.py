"""OffloadEnv and VectorOffloadEnv: Gymnasium's signatures over `offload env`
(docs/env.md). numpy is used where it is installed (observations and the
vector environment's results are then arrays), never required."""

import array
import math
import numbers
import struct

from . import _wire
from .spaces import Box, Discrete

try:
    import numpy as _np
except ImportError:  # numpy is optional
    _np = None

assert array.array("i").itemsize == 4, "array('i') must be 32-bit for the wire's int32 actions"

_STEP1 = struct.Struct("<4sIi")
_MAX_SEED = (1 << 64) - 1


class _Base:
    """What both environments share: the server, the hello, the spaces."""

    metadata = {"render_modes": []}
    render_mode = None
    spec = None

    def __init__(self, scenario, offload, envs, sets, use_numpy):
        self._np = _np if use_numpy is None else (_np if use_numpy else None)
        if use_numpy and _np is None:
            raise ImportError("use_numpy=True, but numpy is not installed")
        self._srv = _wire.Server(offload, scenario, envs, sets)
        h = self._srv.hello
        self.hello = h
        self.tiers = [t["name"] for t in h["tiers"]]
        self.fields = [f["name"] for f in h["fields"]]
        # Fields a real dispatcher could not know at the decision (the
        # task's size): a learner that reads them is a clairvoyant one, to
        # be compared with the clairvoyant baselines only.
        self.clairvoyant = frozenset(i for i, f in enumerate(h["fields"]) if f["clairvoyant"])
        self.baselines = h["baselines"]
        self.episode = h["episode"]
        self.num_envs = h["envs"]
        self.single_action_space = Discrete(len(self.tiers))
        self.single_observation_space = Box(0.0, math.inf, (len(self.fields),))
        self._k = len(self.fields)

    def field(self, name):
        """The index of an observation field, e.g. field("edge.queued")."""
        try:
            return self.fields.index(name)
        except ValueError:
            raise KeyError("no observation field %r (have: %s)" % (name, ", ".join(self.fields))) from None

    def _bad_action(self, a, why):
        names = ", ".join("%d %s" % (i, t) for i, t in enumerate(self.tiers))
        return "action %r: %s; allowed: an integer in 0..%d (a tier's index: %s)" % (a, why, len(self.tiers) - 1, names)

    def close(self):
        """Ends the server process. Also done at garbage collection and at
        interpreter exit."""
        srv = getattr(self, "_srv", None)
        if srv is not None:
            srv.close()

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def unwrapped(self):
        return self

    def _check_seed(self, seed):
        if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or not 0 <= seed <= _MAX_SEED:
            raise TypeError("seed %r: want None or an integer in [0, 2**64)" % (seed,))
        return int(seed)

    def _info(self, b, lo, hi):
        """The tasks lo..hi-1 of batch b, as info's lists."""
        return {
            "task": b.ints("q", b.o_task + 8 * lo, hi - lo),
            "latency": b.floats(b.o_lat + 8 * lo, hi - lo),
            "measured": tuple(x == 1 for x in b.buf[b.o_meas + lo:b.o_meas + hi]),
        }


class OffloadEnv(_Base):
    """One environment: each step decides one task's tier.

    scenario: a scenario YAML file, None for the embedded default;
    offload: the offload binary. Keyword-only: sets, --set overrides
    ("tasks=1000"); use_numpy: None (numpy if installed), True or False.

    reset(seed=None) -> (obs, info); step(action) -> (obs, reward,
    terminated, truncated, info). reset(seed=s) runs replicate 0 of master
    seed s, as `offload run --seed s` does; each reset after it the next
    replicate. obs is a numpy array (a tuple without numpy) laid out as
    self.fields; info holds the seed and replicate at reset, and at each
    step the tasks completed in it: "task" (ids), "latency" (s) and
    "measured" (whether `offload run` counts the task: after the scenario's
    warmup).
    """

    def __init__(self, scenario=None, offload="offload", *, sets=(), use_numpy=None):
        _Base.__init__(self, scenario, offload, 1, sets, use_numpy)
        self.action_space = self.single_action_space
        self.observation_space = self.single_observation_space
        self._over = True
        self._started = False

    def reset(self, seed=None, options=None):
        if seed is None:
            entry = (0, 0, 0, _wire.RESET_NEXT)
        else:
            entry = (self._check_seed(seed), 0, 1, _wire.RESET_SEED)
        self._srv.send(_wire.reset_frame([entry]))
        b = self._srv.batch()
        self._over = False
        self._started = True
        seed_, rep = b.ints("Q", b.o_seed, 1)[0], b.ints("Q", b.o_rep, 1)[0]
        return self._obs(b), {"seed": seed_, "replicate": rep}

    def step(self, action):
        if type(action) is not int:
            if isinstance(action, bool) or not isinstance(action, numbers.Integral):
                raise TypeError(self._bad_action(action, "not an integer"))
            action = int(action)
        if not 0 <= action < len(self.tiers):
            raise ValueError(self._bad_action(action, "out of range"))
        if self._over:
            raise RuntimeError("step() before reset(), or after the episode ended: call reset()"
                               if self._started else "step() before reset(): call reset() first")
        self._srv.send(_STEP1.pack(b"S\0\0\0", 4, action))
        b = self._srv.batch()
        reward = b.floats(b.o_rew, 1)[0]
        terminated = b.buf[b.o_term] == 1
        self._over = terminated
        return self._obs(b), reward, terminated, False, self._info(b, 0, b.m)

    def _obs(self, b):
        if self._np is not None:
            return self._np.frombuffer(b.buf, "<f8", b.k, b.o_obs).copy()
        return b.floats(b.o_obs, b.k)


class VectorOffloadEnv(_Base):
    """n environments in one server process, stepped together: one frame
    per reset or step.

    reset(seed=None) -> (obs, info); step(actions) -> (obs, rewards,
    terminated, truncated, info), each of n (numpy arrays where numpy is
    installed, else lists; obs is n × len(fields)).

    Seeds: reset(seed=s) gives environment i replicate i of master seed s,
    and each of its later episodes replicate i + n, i + 2n, ...: the n
    environments cover `offload run --seed s`'s replicates 0, 1, 2, ...
    once each. reset(seed=[s0, ..., s(n-1)]) gives environment i replicate
    0 of s_i, then 1, 2, .... reset() without a seed starts each
    environment's next replicate.

    Autoreset (Gymnasium's next-step mode): an environment whose episode
    ended at a step (terminated) is reset at the next step, whose action
    for it is ignored: that step returns its new episode's first
    observation with reward 0 and terminated False.

    info: "task", "latency", "measured" -- the tasks completed during the
    step, all environments together -- and "env", the environment of each;
    "seed" and "replicate" of each environment's episode.
    """

    def __init__(self, n, scenario=None, offload="offload", *, sets=(), use_numpy=None):
        if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
            raise ValueError("n %r: want an integer >= 1 (environments)" % (n,))
        _Base.__init__(self, scenario, offload, int(n), sets, use_numpy)
        n = self.num_envs
        self.action_space = _MultiDiscrete(n, len(self.tiers))
        self.observation_space = Box(0.0, math.inf, (n, len(self.fields)))
        self._step_head = _wire.header(b"S", 4 * n)

    def reset(self, seed=None, options=None):
        n = self.num_envs
        if seed is None:
            entries = [(0, 0, 0, _wire.RESET_NEXT)] * n
        elif isinstance(seed, (list, tuple)):
            if len(seed) != n:
                raise ValueError("seed: %d seeds for %d environments" % (len(seed), n))
            entries = [(self._check_seed(s), 0, 1, _wire.RESET_SEED) for s in seed]
        else:
            s = self._check_seed(seed)
            entries = [(s, i, n, _wire.RESET_SEED) for i in range(n)]
        self._srv.send(_wire.reset_frame(entries))
        b = self._srv.batch()
        obs, _, _, _, info = self._decode(b)
        return obs, info

    def step(self, actions):
        self._srv.send(self._step_head + self._actions(actions))
        return self._decode(self._srv.batch())

    def _actions(self, actions):
        n, k = self.num_envs, len(self.tiers)
        np = self._np
        if np is not None and isinstance(actions, np.ndarray):
            if actions.shape != (n,):
                raise ValueError("actions: shape %s, want (%d,)" % (actions.shape, n))
            if actions.dtype.kind not in "iu":
                raise TypeError(self._bad_action(actions.dtype, "actions of dtype %s are not integers" % actions.dtype))
            bad = (actions < 0) | (actions >= k)
            if bad.any():
                i = int(bad.argmax())
                raise ValueError("environment %d: %s" % (i, self._bad_action(int(actions[i]), "out of range")))
            return actions.astype("<i4").tobytes()
        try:
            arr = array.array("i", actions)
        except (TypeError, OverflowError):
            arr = None
        if arr is None or any(type(a) is bool for a in actions):
            for i, a in enumerate(actions):
                if isinstance(a, bool) or not isinstance(a, numbers.Integral):
                    raise TypeError("environment %d: %s" % (i, self._bad_action(a, "not an integer")))
            raise ValueError("actions %r: want %d integers in 0..%d" % (actions, n, k - 1))
        if len(arr) != n:
            raise ValueError("actions: %d given, want %d (one per environment)" % (len(arr), n))
        if min(arr) < 0 or max(arr) >= k:
            i = next(i for i, a in enumerate(arr) if not 0 <= a < k)
            raise ValueError("environment %d: %s" % (i, self._bad_action(arr[i], "out of range")))
        return _wire.native_int32(arr)

    def _decode(self, b):
        n, k, m = b.n, b.k, b.m
        np = self._np
        counts = b.ints("I", b.o_cnt, n)
        if np is not None:
            buf = b.buf
            obs = np.frombuffer(buf, "<f8", n * k, b.o_obs).reshape(n, k).copy()
            rew = np.frombuffer(buf, "<f8", n, b.o_rew).copy()
            term = np.frombuffer(buf, "u1", n, b.o_term) == 1
            trunc = np.zeros(n, dtype=bool)
            info = {
                "task": np.frombuffer(buf, "<i8", m, b.o_task).copy(),
                "latency": np.frombuffer(buf, "<f8", m, b.o_lat).copy(),
                "measured": np.frombuffer(buf, "u1", m, b.o_meas) == 1,
                "env": np.repeat(np.arange(n), counts),
                "seed": np.frombuffer(buf, "<u8", n, b.o_seed).copy(),
                "replicate": np.frombuffer(buf, "<u8", n, b.o_rep).copy(),
            }
            return obs, rew, term, trunc, info
        flat = b.floats(b.o_obs, n * k)
        obs = [flat[i * k:(i + 1) * k] for i in range(n)]
        rew = list(b.floats(b.o_rew, n))
        term = [x == 1 for x in b.buf[b.o_term:b.o_term + n]]
        info = self._info(b, 0, m)
        info["env"] = tuple(i for i, c in enumerate(counts) for _ in range(c))
        info["seed"] = b.ints("Q", b.o_seed, n)
        info["replicate"] = b.ints("Q", b.o_rep, n)
        return obs, rew, term, [False] * n, info


class _MultiDiscrete:
    """n actions of Discrete(k) each (gymnasium.spaces.MultiDiscrete)."""

    def __init__(self, n, k):
        self.shape = (n,)
        self.nvec = [k] * n
        self.dtype = "int64"
        self._d = Discrete(k)

    def seed(self, seed=None):
        return self._d.seed(seed)

    def sample(self):
        return [self._d.sample() for _ in self.nvec]

    def __repr__(self):
        return "MultiDiscrete(%d × %d)" % (len(self.nvec), self.nvec[0])
