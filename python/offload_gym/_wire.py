"""The client side of `offload env`'s protocol (docs/env.md, version 1).

Every frame is an 8-byte header -- its type, three zero bytes, the payload's
length as a little-endian uint32 -- and the payload. The server writes a
hello frame (JSON) first, then one batch frame for each reset or step frame
the client sends, or an error frame (UTF-8 text) before it exits.
"""

import atexit
import io
import json
import os
import struct
import subprocess
import sys
import tempfile
import weakref

PROTOCOL = "offload-env"
VERSION = 1

_HEADER = struct.Struct("<4sI")
_BATCH_HEAD = struct.Struct("<IIII")
_LITTLE = sys.byteorder == "little"

# Servers still running, killed at interpreter exit if their owner was not
# closed: a Python process that ends leaves no server behind.
_live = weakref.WeakSet()


@atexit.register
def _kill_all():
    for srv in list(_live):
        srv.close()


def _pad8(n):
    return (8 - n % 8) % 8


class ServerError(RuntimeError):
    """The server refused a frame, failed, or exited."""


class Batch:
    """One decoded batch frame: views into the frame's bytes, valid until
    the next frame is read (the buffer is reused)."""

    __slots__ = ("n", "k", "m", "buf", "o_obs", "o_rew", "o_seed", "o_rep",
                 "o_term", "o_cnt", "o_task", "o_lat", "o_meas")

    def __init__(self, buf):
        n, k, m, _ = _BATCH_HEAD.unpack_from(buf, 0)
        self.n, self.k, self.m, self.buf = n, k, m, buf
        self.o_obs = 16
        self.o_rew = self.o_obs + 8 * n * k
        self.o_seed = self.o_rew + 8 * n
        self.o_rep = self.o_seed + 8 * n
        self.o_term = self.o_rep + 8 * n
        self.o_cnt = self.o_term + n + _pad8(n)
        self.o_task = self.o_cnt + 4 * n + _pad8(4 * n)
        self.o_lat = self.o_task + 8 * m
        self.o_meas = self.o_lat + 8 * m
        if len(buf) != self.o_meas + m + _pad8(m):
            raise ServerError("batch frame of %d bytes: want %d for %d environments, %d fields, %d tasks"
                              % (len(buf), self.o_meas + m + _pad8(m), n, k, m))

    def floats(self, off, count):
        return struct.unpack_from("<%dd" % count, self.buf, off)

    def ints(self, fmt, off, count):
        return struct.unpack_from("<%d%s" % (count, fmt), self.buf, off)


class Server:
    """One `offload env` process and its pipes."""

    def __init__(self, offload, scenario, envs, sets=()):
        args = [os.fspath(offload), "env", "--envs", str(envs)]
        if scenario is not None:
            args += ["-f", os.fspath(scenario)]
        for s in sets:
            args += ["--set", s]
        self.args = args
        # The server's stderr goes to a file, read when it fails: a pipe
        # nobody reads could fill and block it.
        self._err = tempfile.TemporaryFile()
        try:
            self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self._err, bufsize=0)
        except OSError as e:
            self._err.close()
            raise ServerError("cannot start %s: %s (give offload=, the path of the offload binary)"
                              % (" ".join(args), e)) from None
        self._w = self.proc.stdin
        self._r = io.BufferedReader(self.proc.stdout, 1 << 16)
        self._buf = bytearray(1 << 16)
        self.closed = False
        _live.add(self)
        typ, payload = self.read()
        if typ != b"H":
            self.close()
            raise ServerError("the server's first frame is %r, not a hello" % typ)
        self.hello = json.loads(bytes(payload))
        if self.hello.get("protocol") != PROTOCOL or self.hello.get("version") != VERSION:
            self.close()
            raise ServerError("the server speaks %s version %s; this client speaks %s version %d"
                              % (self.hello.get("protocol"), self.hello.get("version"), PROTOCOL, VERSION))

    def stderr(self):
        """What the server wrote to its stderr so far."""
        try:
            self._err.seek(0)
            return self._err.read().decode("utf-8", "replace").strip()
        except (OSError, ValueError):
            return ""

    def _died(self, why):
        try:
            code = self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            code = None
        msg = self.stderr()
        self.close()
        return ServerError("%s (offload env exited with status %s)%s" % (why, code, ": " + msg if msg else ""))

    def read(self):
        """The next frame: its type and a memoryview of its payload."""
        if self.closed:
            raise ServerError("the environment is closed")
        h = self._r.read(8)
        if len(h) < 8:
            raise self._died("the server's output ended")
        typ, n = _HEADER.unpack(h)
        typ = typ[:1]
        if n > len(self._buf):
            self._buf = bytearray(n)
        view = memoryview(self._buf)[:n]
        if n and self._r.readinto(view) != n:
            raise self._died("the server's output ended inside a frame")
        if typ == b"E":
            msg = bytes(view).decode("utf-8", "replace")
            self.close()
            raise ServerError("offload env: " + msg)
        return typ, view

    def send(self, frame):
        if self.closed:
            raise ServerError("the environment is closed")
        try:
            self._w.write(frame)
        except (BrokenPipeError, OSError):
            raise self._died("the server stopped reading") from None

    def batch(self):
        typ, payload = self.read()
        if typ != b"B":
            self.close()
            raise ServerError("expected a batch frame, got %r" % typ)
        return Batch(payload)

    def close(self):
        """Ends the server: closing its stdin makes it exit; it is killed if
        it has not within a few seconds."""
        if self.closed:
            return
        self.closed = True
        _live.discard(self)
        proc = self.proc
        for f in (proc.stdin, proc.stdout):
            try:
                f.close()
            except OSError:
                pass
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        self._err.close()


def header(typ, n):
    return _HEADER.pack(typ + b"\0\0\0", n)


_RESET_ENTRY = struct.Struct("<QQII")
RESET_NEXT, RESET_SEED = 0, 1


def reset_frame(entries):
    """entries: (seed, replicate, stride, mode) per environment."""
    body = b"".join(_RESET_ENTRY.pack(*e) for e in entries)
    return header(b"R", len(body)) + body


def native_int32(arr):
    """The bytes of an array('i') as little-endian int32."""
    if not _LITTLE:
        arr.byteswap()
    return arr.tobytes()
