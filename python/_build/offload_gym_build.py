"""A PEP 517 build backend of the standard library alone, for offload_gym.

It builds a pure-Python wheel of the offload_gym package (PEP 427), an
editable one (PEP 660: a .pth file naming this folder) and an sdist, with
the name, version, description and Python requirement of pyproject.toml's
[project] table. It needs nothing installed, so that
`pip install --no-build-isolation ./python` works offline in any venv.
"""

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "offload_gym"


def _project():
    """The [project] table's string keys (key = "value" lines)."""
    out, inside = {}, False
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line.startswith("["):
                inside = line == "[project]"
            elif inside:
                m = re.match(r'^([A-Za-z-]+)\s*=\s*"(.*)"$', line)
                if m:
                    out[m.group(1)] = m.group(2)
    return out


def _names():
    p = _project()
    dist = re.sub(r"[-_.]+", "_", p["name"])
    return p, dist, "%s-%s.dist-info" % (dist, p["version"])


def _metadata(p):
    lines = ["Metadata-Version: 2.1", "Name: " + p["name"], "Version: " + p["version"],
             "Summary: " + p.get("description", ""), "Requires-Python: " + p.get("requires-python", ">=3"),
             "Provides-Extra: numpy", 'Requires-Dist: numpy; extra == "numpy"']
    readme = p.get("readme")
    body = ""
    if readme:
        lines.append("Description-Content-Type: text/markdown")
        with open(os.path.join(ROOT, readme), encoding="utf-8") as f:
            body = "\n" + f.read()
    return "\n".join(lines) + "\n" + body


_WHEEL = "Wheel-Version: 1.0\nGenerator: offload_gym_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"


def _dist_info(p, info):
    return {info + "/METADATA": _metadata(p).encode(), info + "/WHEEL": _WHEEL.encode()}


def _write_wheel(wheel_directory, files):
    p, dist, info = _names()
    name = "%s-%s-py3-none-any.whl" % (dist, p["version"])
    files = dict(files)
    files.update(_dist_info(p, info))
    record = []
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(files):
            data = files[path]
            z.writestr(path, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append("%s,sha256=%s,%d" % (path, digest, len(data)))
        record.append(info + "/RECORD,,")
        z.writestr(info + "/RECORD", "\n".join(record) + "\n")
    return name


def _package_files():
    files = {}
    src = os.path.join(ROOT, PACKAGE)
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for fn in sorted(filenames):
            if fn.endswith(".py"):
                full = os.path.join(dirpath, fn)
                with open(full, "rb") as f:
                    files[os.path.relpath(full, ROOT).replace(os.sep, "/")] = f.read()
    return files


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    p, _, info = _names()
    for path, data in _dist_info(p, info).items():
        full = os.path.join(metadata_directory, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)
    return info


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, _package_files())


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, {"offload_gym_editable.pth": (ROOT + "\n").encode()})


def build_sdist(sdist_directory, config_settings=None):
    p, dist, _ = _names()
    base = "%s-%s" % (dist, p["version"])
    name = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as t:
        members = ["pyproject.toml", "README.md", "_build/offload_gym_build.py"] + sorted(_package_files())
        for rel in members:
            t.add(os.path.join(ROOT, rel), arcname=base + "/" + rel)
        pkg = ("Metadata-Version: 2.1\nName: %s\nVersion: %s\n" % (p["name"], p["version"])).encode()
        ti = tarfile.TarInfo(base + "/PKG-INFO")
        ti.size = len(pkg)
        t.addfile(ti, io.BytesIO(pkg))
    return name
