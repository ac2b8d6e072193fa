#!/usr/bin/env python3
"""Writes prunefix-0.1-py3-none-linux_x86_64.whl, the wheel `tailor prune`'s
tests prune and install with pip: multi.so and cpu-only.so as libraries of a
package, a complete dist-info (METADATA, WHEEL, RECORD with sha256 and sizes).
Run here; the output is reproducible (fixed timestamps)."""
import base64, hashlib, os, zipfile

here = os.path.dirname(os.path.abspath(__file__))
name = "prunefix-0.1-py3-none-linux_x86_64.whl"
info = "prunefix-0.1.dist-info"
members = [
    ("prunefix/__init__.py", b"# a fixture for tailor prune\n", 0o644),
    ("prunefix/lib/libmulti.so", open(os.path.join(here, "multi.so"), "rb").read(), 0o755),
    ("prunefix/lib/libcpu.so", open(os.path.join(here, "cpu-only.so"), "rb").read(), 0o755),
    (f"{info}/METADATA", b"Metadata-Version: 2.1\nName: prunefix\nVersion: 0.1\n", 0o644),
    (f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: make-prune-wheel.py\nRoot-Is-Purelib: false\nTag: py3-none-linux_x86_64\n", 0o644),
]

def record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}\n"

record = "".join(record_line(p, d) for p, d, _ in members) + f"{info}/RECORD,,\n"
with zipfile.ZipFile(os.path.join(here, name), "w", zipfile.ZIP_DEFLATED) as z:
    for path, data, mode in members + [(f"{info}/RECORD", record.encode(), 0o644)]:
        zi = zipfile.ZipInfo(path, date_time=(2026, 1, 1, 0, 0, 0))
        zi.external_attr = (0o100000 | mode) << 16
        zi.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(zi, data)
