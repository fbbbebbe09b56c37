"""Gymnasium-shaped spaces without gymnasium: Discrete for the tier, Box for
the observation. They carry the attributes agents read (n, shape, dtype,
low, high) and sample and contains."""

import math
import random


class Discrete:
    """The integers 0..n-1 (gymnasium.spaces.Discrete with start 0)."""

    def __init__(self, n, seed=None):
        self.n = int(n)
        self.start = 0
        self.shape = ()
        self.dtype = "int64"
        self._rng = random.Random(seed)

    def seed(self, seed=None):
        self._rng = random.Random(seed)
        return [seed]

    def sample(self):
        return self._rng.randrange(self.n)

    def contains(self, x):
        return isinstance(x, int) and not isinstance(x, bool) and 0 <= x < self.n \
            or hasattr(x, "dtype") and getattr(x, "shape", None) == () and x.dtype.kind in "iu" and 0 <= int(x) < self.n

    __contains__ = contains

    def __repr__(self):
        return "Discrete(%d)" % self.n

    def __eq__(self, other):
        return isinstance(other, Discrete) and other.n == self.n


class Box:
    """A vector of k float64 in [low, high] per entry (gymnasium.spaces.Box);
    every observation field is in [0, +inf)."""

    def __init__(self, low, high, shape, seed=None):
        self.shape = tuple(shape)
        self.dtype = "float64"
        k = self.shape[0]
        self.low = [float(low)] * k
        self.high = [float(high)] * k
        try:
            import numpy as np
            self.low, self.high = np.array(self.low), np.array(self.high)
        except ImportError:
            pass
        self._rng = random.Random(seed)

    def seed(self, seed=None):
        self._rng = random.Random(seed)
        return [seed]

    def sample(self):
        """As gymnasium samples a box: uniform where both bounds are finite,
        shifted exponential where only the lower one is."""
        out = []
        for lo, hi in zip(self.low, self.high):
            lo, hi = float(lo), float(hi)
            out.append(self._rng.uniform(lo, hi) if math.isfinite(hi) else lo + self._rng.expovariate(1.0))
        return out

    def contains(self, x):
        try:
            xs = [float(v) for v in x]
        except TypeError:
            return False
        return len(xs) == self.shape[0] and all(float(lo) <= v <= float(hi) for v, lo, hi in zip(xs, self.low, self.high))

    __contains__ = contains

    def __repr__(self):
        return "Box(%s, %s, %s, float64)" % (float(self.low[0]), float(self.high[0]), self.shape)
