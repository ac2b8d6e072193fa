#!/usr/bin/env python3
"""Rebuild a wheel from an installed distribution (no network on the GPU
machine): its top-level packages and a fresh *.dist-info with an exact RECORD,
members deflated at zlib level 6 on every core.
usage: make_wheel.py SITE_PACKAGES DIST_NAME OUT_DIR   (DIST_NAME: torch)"""
import base64, glob, hashlib, multiprocessing as mp, os, struct, sys, zlib


def pack(args):
    site, rel = args
    with open(os.path.join(site, rel), "rb") as f:
        data = f.read()
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    z = c.compress(data) + c.flush()
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    mode = os.stat(os.path.join(site, rel)).st_mode & 0o777
    return rel, z, zlib.crc32(data), len(data), f"sha256={digest}", mode


def main():
    site, dist, out_dir = sys.argv[1:4]
    info = sorted(glob.glob(os.path.join(site, f"{dist}-*.dist-info")))[-1]
    info_name = os.path.basename(info)
    version = info_name[len(dist) + 1:-len(".dist-info")]
    tops = [dist]
    top_file = os.path.join(info, "top_level.txt")
    if os.path.exists(top_file):
        tops = [t.strip() for t in open(top_file) if t.strip() and os.path.isdir(os.path.join(site, t.strip()))]
    files = []
    for top in tops:
        for d, dirs, names in os.walk(os.path.join(site, top)):
            dirs[:] = sorted(x for x in dirs if x != "__pycache__")
            files += [os.path.relpath(os.path.join(d, n), site) for n in sorted(names)]
    files += [os.path.join(info_name, n) for n in ("METADATA", "WHEEL", "entry_points.txt", "top_level.txt")
              if os.path.exists(os.path.join(info, n))]
    with mp.Pool(os.cpu_count()) as pool:
        packed = pool.map(pack, [(site, f) for f in files], chunksize=8)
    record = "".join(f"{r},{h},{n}\n" for r, _, _, n, h, _ in packed) + f"{info_name}/RECORD,,\n"
    rb = record.encode()
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    packed.append((f"{info_name}/RECORD", c.compress(rb) + c.flush(), zlib.crc32(rb), len(rb), "", 0o644))
    tag = "cp{0}{1}-cp{0}{1}-linux_x86_64".format(*sys.version_info[:2])
    out = os.path.join(out_dir, f"{dist}-{version}-{tag}.whl")
    central = b""
    with open(out, "wb") as f:
        for rel, z, crc, n, _, mode in packed:
            name = rel.encode()
            off = f.tell()
            f.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0x800, 8, 0, 0x21, crc, len(z), n, len(name), 0) + name + z)
            central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, (3 << 8) | 20, 20, 0x800, 8, 0, 0x21, crc, len(z), n,
                                   len(name), 0, 0, 0, 0, (0o100000 | mode) << 16, off) + name
        start = f.tell()
        f.write(central)
        f.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(packed), len(packed), len(central), start, 0))
    print(out)


if __name__ == "__main__":
    main()
