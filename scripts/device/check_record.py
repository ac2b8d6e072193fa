#!/usr/bin/env python3
"""Every RECORD line of a wheel against its members: sha256 and size, and no
member missing from RECORD (RECORD itself aside). Optionally the files of a
`pip install --target` tree against the same RECORD.
usage: check_record.py WHEEL [TARGET_DIR]      prints one summary line; exit 1 on any mismatch"""
import base64, csv, hashlib, io, os, sys, zipfile


def h(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


whl = zipfile.ZipFile(sys.argv[1])
target = sys.argv[2] if len(sys.argv) > 2 else None
rec_name = next(n for n in whl.namelist() if n.count("/") == 1 and n.endswith(".dist-info/RECORD"))
rows = list(csv.reader(io.TextIOWrapper(whl.open(rec_name), "utf-8")))
names = set(whl.namelist())
bad, checked, installed = [], 0, 0
for path, digest, size in rows:
    if not digest:
        continue
    data = whl.read(path)
    checked += 1
    if h(data) != digest or str(len(data)) != size:
        bad.append(f"wheel {path}")
    if target:
        with open(os.path.join(target, path), "rb") as f:
            if h(f.read()) != digest:
                bad.append(f"installed {path}")
        installed += 1
unlisted = names - {r[0] for r in rows} - {n for n in names if n.endswith("/")}
print(f"RECORD: {checked} hashes checked in the wheel, {installed} installed files checked, {len(bad)} wrong, "
      f"{len(unlisted)} members not in RECORD" + (f"; first wrong: {bad[0]}" if bad else ""))
sys.exit(1 if bad or unlisted else 0)
