#!/usr/bin/env python3
"""Fatbin containers wherever they lie in an ELF file, per section, SM and kind.

`tailor inspect` reads the sections the CUDA toolchain puts fatbins in
(.nv_fatbin, __nv_relfatbin). Some NVIDIA libraries keep most of their device
code elsewhere (cuFFT in .ldata, cuBLASLt and cuSPARSELt in .cask_resource);
this finds every container by its magic (0xBA55ED50, version 1, 16-byte header)
in every section and tallies its entries, to explain what prune leaves whole.
Issue 59 item 4; the figures are in bench/README.md.

  usage: bench/fatbin_containers.py LIB...      (needs readelf)
"""
import collections
import mmap
import re
import struct
import subprocess
import sys

KINDS = {1: "ptx", 2: "sass", 8: "nvvm"}


def sections(path):
    out = subprocess.run(["readelf", "-SW", path], capture_output=True, text=True, check=True).stdout
    pat = re.compile(r"\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+([0-9a-f]+)")
    for line in out.splitlines():
        m = pat.match(line)
        if m and m.group(2) != "NOBITS":
            yield m.group(1), int(m.group(3), 16), int(m.group(4), 16)


def scan(m, lo, hi):
    """Containers in [lo, hi): their count, bytes, and bytes per (arch, kind)."""
    by, count, total, at = collections.Counter(), 0, 0, lo
    while True:
        at = m.find(b"\x50\xed\x55\xba", at, hi)
        if at < 0 or at + 16 > hi:
            break
        version, header = struct.unpack_from("<HH", m, at + 4)
        (size,) = struct.unpack_from("<Q", m, at + 8)
        if version != 1 or header != 16 or at + 16 + size > hi:
            at += 4
            continue
        count, total = count + 1, total + 16 + size
        e, end = at + 16, at + 16 + size
        while e + 64 <= end:
            kind, _, eh = struct.unpack_from("<HHI", m, e)
            (payload,) = struct.unpack_from("<Q", m, e + 8)
            (arch,) = struct.unpack_from("<I", m, e + 28)
            if eh < 64 or e + eh + payload > end:
                break
            by[(arch, KINDS.get(kind, str(kind)))] += eh + payload
            e += eh + payload
        at = end
    return count, total, by


def main():
    for path in sys.argv[1:]:
        with open(path, "rb") as f:
            m = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            print(f"{path}: {len(m):,} B")
            for name, off, size in sections(path):
                if size < 1 << 20:
                    continue
                count, total, by = scan(m, off, off + size)
                line = f"  {name:18} {size / 1e6:8.1f} MB"
                if count:
                    kinds = ", ".join(f"{k}_{a} {v / 1e6:.1f}" for (a, k), v in sorted(by.items()))
                    line += f"  {count:,} containers, {total / 1e6:.1f} MB: {kinds}"
                print(line)


if __name__ == "__main__":
    main()
