#!/usr/bin/env python3
"""Checks a wheel's RECORD (PEP 376/427) against its members with hashlib:
every member listed once, every hash and size right. Prints
"RECORD verifies: N files" or the first mismatch (exit 1)."""
import base64, csv, hashlib, io, sys, zipfile

z = zipfile.ZipFile(sys.argv[1])
record = [n for n in z.namelist() if n.endswith(".dist-info/RECORD") and n.count("/") == 1]
if len(record) != 1:
    sys.exit(f"expected one *.dist-info/RECORD, found {record}")
rows = list(csv.reader(io.StringIO(z.read(record[0]).decode())))
listed = [r[0] for r in rows]
if sorted(listed) != sorted(n for n in z.namelist() if not n.endswith("/")):
    sys.exit(f"RECORD lists {sorted(listed)}, the archive holds {sorted(z.namelist())}")
for path, digest, size in rows:
    if path == record[0]:
        continue
    data = z.read(path)
    want = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    if digest != want or int(size) != len(data):
        sys.exit(f"{path}: RECORD says {digest},{size}; the member is {want},{len(data)}")
print(f"RECORD verifies: {len(rows)} files")
