"""Compares a pruned ELF library with its original, section by section, with
no code of tailor's: only the fatbin and what points into it may change.

- Every section keeps its name, type, flags, address, alignment, link, info and
  entry size, and every section's bytes are the same, except:
- .nv_fatbin may shrink; each of its entries (header and payload) is
  byte-for-byte one of the entries of the container it came from;
- .nvFatBinSegment: only the data pointer of each 24-byte wrapper
  (__fatBinC_Wrapper_t: magic, version, data, filename) may change, and it must
  point at a container of the new .nv_fatbin;
- .symtab, .dynsym: only the values of symbols in .nv_fatbin may change, and
  stay in it;
- .rela.dyn: only the addends of the relocations of those pointers may change,
  and each must equal its wrapper's new pointer.

With --sm X.Y (the SMs pruned for, one), each container must hold what the
CUDA driver could load on that GPU, worked out here from the original's entry
headers by NVIDIA's rule (CUDA C++ Programming Guide, binary compatibility):
the newest cubins of the GPU's major not above it (sm_XYa: that GPU only);
where none, the newest PTX not above it; where none of either, the entries that
are neither cubin nor PTX (NVVM IR), or else the one smallest entry (the first
of equals; issue 59: nothing there runs on that GPU, before or after).

usage: python3 compare_sections.py ORIGINAL PRUNED [--sm X.Y]
Prints one line per difference and exits 1 on any; else prints a summary and exits 0.
"""
import hashlib
import mmap
import struct
import sys

MAGIC = 0xBA55ED50


class Elf:
    def __init__(self, path):
        self.f = open(path, "rb")
        self.m = mmap.mmap(self.f.fileno(), 0, access=mmap.ACCESS_READ)
        m = self.m
        if m[:4] != b"\x7fELF" or m[4] != 2 or m[5] != 1:
            raise SystemExit(f"{path}: not a little-endian ELF64 file")
        self.header = bytes(m[:16]) + m[16:24]  # ident, type, machine, version
        shoff, = struct.unpack_from("<Q", m, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", m, 0x3A)
        raw = []
        for i in range(shnum):
            raw.append(struct.unpack_from("<IIQQQQIIQQ", m, shoff + i * shentsize))
        names = raw[shstrndx]
        self.sections = {}
        self.order = []
        for i, (name, typ, flags, addr, offset, size, link, info, align, entsize) in enumerate(raw):
            end = m.find(b"\0", names[4] + name)
            n = m[names[4] + name:end].decode() or f"#{i}"
            self.sections[n] = dict(type=typ, flags=flags, addr=addr, offset=offset, size=size, link=link,
                                    info=info, align=align, entsize=entsize)
            self.order.append(n)

    def data(self, name):
        s = self.sections[name]
        if s["type"] == 8:  # SHT_NOBITS
            return b""
        return self.m[s["offset"]:s["offset"] + s["size"]]


def containers(data):
    """{offset in the section: [entry bytes]} of every container, skipping the zeros between them."""
    out, at = {}, 0
    while at + 16 <= len(data):
        magic, _version, hsize, size = struct.unpack_from("<IHHQ", data, at)
        if magic != MAGIC:
            if magic == 0 and struct.unpack_from("<I", data, at + 4)[0] == 0:
                at += 8
                continue
            raise ValueError(f"no container at {at:#x}")
        entries, e, end = [], at + hsize, at + hsize + size
        while e < end:
            kind, _v, ehsize, esize = struct.unpack_from("<HHIQ", data, e)
            if kind == 0 and ehsize == 0:  # an entry zeroed by prune without compaction
                e += 8
                continue
            entries.append(bytes(data[e:e + ehsize + esize]))
            e += ehsize + esize
        out[at] = entries
        at = (end + 7) & ~7
    return out


def runs(entry, major, minor):
    """(kind, arch) when \a entry's code runs on SM major.minor, else None."""
    kind, = struct.unpack_from("<H", entry, 0)
    arch, = struct.unpack_from("<I", entry, 28)
    flags, = struct.unpack_from("<Q", entry, 40)
    m, n = arch // 10, arch % 10
    if flags & 0x100000:  # arch-specific: that SM only
        ok = (m, n) == (major, minor)
    elif kind == 1:  # PTX: JIT-compiled for any newer GPU
        ok = (m, n) <= (major, minor)
    else:
        ok = m == major and n <= minor
    return (kind, arch) if ok else None


def expected(entries, sm):
    """The entries the driver could load on \a sm, by the rule in the module's comment."""
    major, minor = (int(x) for x in sm.split("."))
    fit = [(runs(e, major, minor), e) for e in entries]
    sass = [(k, e) for k, e in fit if k and k[0] == 2]
    if sass:
        best = max(k[1] for k, _ in sass)
        return [e for k, e in sass if k[1] == best]
    ptx = [(k, e) for k, e in fit if k and k[0] == 1]
    if ptx:
        best = max(k[1] for k, _ in ptx)
        return [e for k, e in ptx if k[1] == best]
    others = [e for e in entries if struct.unpack_from("<H", e, 0)[0] not in (1, 2, 4)]  # 4: an old-style cubin
    if others or not entries:
        return others
    return [min(entries, key=len)]


def digest(b):
    return hashlib.sha1(b).digest()


def main():
    sm = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--sm" else None
    old, new = Elf(sys.argv[1]), Elf(sys.argv[2])
    errors = []
    if old.header != new.header:
        errors.append("ELF header: ident, type or machine changed")
    if old.order != new.order:
        errors.append(f"section list changed: {old.order} -> {new.order}")
    fat = old.sections.get(".nv_fatbin")
    seg = old.sections.get(".nvFatBinSegment")
    if not fat or not seg:
        raise SystemExit(f"{sys.argv[1]}: no .nv_fatbin or .nvFatBinSegment")
    nfat = new.sections[".nv_fatbin"]
    wrappers = seg["size"] // 24
    same = 0
    for name in old.order:
        a, b = old.sections[name], new.sections.get(name)
        if b is None:
            continue
        for key in ("type", "flags", "addr", "align", "link", "info", "entsize"):
            if a[key] != b[key]:
                errors.append(f"{name}: {key} {a[key]:#x} -> {b[key]:#x}")
        if name == ".nv_fatbin":
            if b["size"] > a["size"]:
                errors.append(f"{name}: grew from {a['size']} to {b['size']} bytes")
            continue
        if a["size"] != b["size"]:
            errors.append(f"{name}: size {a['size']} -> {b['size']}")
            continue
        if name in (".nvFatBinSegment", ".rela.dyn"):
            continue
        if name in (".symtab", ".dynsym") and a["entsize"] == 24:
            fat_index = old.order.index(".nv_fatbin")
            x, y = old.data(name), new.data(name)
            for i in range(len(x) // 24):
                o, n = x[i * 24:i * 24 + 24], y[i * 24:i * 24 + 24]
                if o == n:
                    continue
                shndx, = struct.unpack_from("<H", o, 6)
                value, = struct.unpack_from("<Q", n, 8)
                if o[:8] != n[:8] or o[16:] != n[16:] or shndx != fat_index or not (
                        new.sections[".nv_fatbin"]["addr"] <= value <=
                        new.sections[".nv_fatbin"]["addr"] + new.sections[".nv_fatbin"]["size"]):
                    errors.append(f"{name}: symbol {i} changed, and not as a symbol in .nv_fatbin may")
            same += 1
            continue
        if old.data(name) != new.data(name):
            x, y = old.data(name), new.data(name)
            first = next(i for i in range(len(x)) if x[i] != y[i])
            errors.append(f"{name}: contents differ (first at byte {first:#x} of the section)")
        else:
            same += 1

    # The wrappers: only their data pointers change.
    os_, ns_ = old.data(".nvFatBinSegment"), new.data(".nvFatBinSegment")
    old_ptr, new_ptr = {}, {}
    for w in range(wrappers):
        o, n = os_[w * 24:w * 24 + 24], ns_[w * 24:w * 24 + 24]
        if o[:8] != n[:8] or o[16:] != n[16:]:
            errors.append(f".nvFatBinSegment: wrapper {w} changed outside its data pointer")
        old_ptr[seg["addr"] + w * 24 + 8] = struct.unpack_from("<Q", o, 8)[0]
        new_ptr[seg["addr"] + w * 24 + 8] = struct.unpack_from("<Q", n, 8)[0]

    # The relocations: only the addends of the wrappers' pointers change, to the new pointer.
    addends = 0
    if ".rela.dyn" in old.sections:
        orr, nrr = old.data(".rela.dyn"), new.data(".rela.dyn")
        for i in range(len(orr) // 24):
            ooff, oinfo, oadd = struct.unpack_from("<QQq", orr, i * 24)
            noff, ninfo, nadd = struct.unpack_from("<QQq", nrr, i * 24)
            if (ooff, oinfo) != (noff, ninfo):
                errors.append(f".rela.dyn: relocation {i} changed its offset or type")
            elif oadd != nadd:
                if ooff not in new_ptr:
                    errors.append(f".rela.dyn: relocation {i} at {ooff:#x} changed its addend, not a wrapper's")
                else:
                    addends += 1
            if ooff in new_ptr:
                old_ptr[ooff] = oadd or old_ptr[ooff]
                new_ptr[ooff] = nadd or new_ptr[ooff]

    # The fatbin: each wrapper's new container holds entries of its old one, unchanged.
    try:
        oc, nc = containers(old.data(".nv_fatbin")), containers(new.data(".nv_fatbin"))
    except ValueError as e:
        errors.append(f".nv_fatbin: {e}")
        oc, nc = {}, {}
    kept = removed = 0
    if oc or nc:
        for place, p in new_ptr.items():
            o, n = old_ptr[place] - fat["addr"], p - nfat["addr"]
            if n not in nc:
                errors.append(f".nvFatBinSegment: the wrapper at {place:#x} points at {p:#x}, no container")
                continue
            if o not in oc:
                continue  # a wrapper of something else (none in NVIDIA's libraries)
            if sm and sorted(map(digest, expected(oc[o], sm))) != sorted(map(digest, nc[n])):
                errors.append(f".nv_fatbin: the container at {n:#x} does not hold what SM {sm} loads of the "
                              f"container at {o:#x} in the original")
            before = {digest(e) for e in oc[o]}
            for k, e in enumerate(nc[n]):
                if digest(e) not in before:
                    errors.append(f".nv_fatbin: entry {k} of the container at {n:#x} is not one of the "
                                  f"container at {o:#x} in the original")
            kept += len(nc[n])
            removed += len(oc[o]) - len(nc[n])
    # Every entry of the new fatbin, a wrapper's or not, is one of the original's.
    everything = {digest(e) for es in oc.values() for e in es}
    for at, es in nc.items():
        for k, e in enumerate(es):
            if digest(e) not in everything:
                errors.append(f".nv_fatbin: entry {k} of the container at {at:#x} is in no container of the original")
    for e in errors:
        print(f"{sys.argv[2]}: {e}")
    if errors:
        sys.exit(1)
    print(f"same: {same} sections; .nv_fatbin {fat['size']} -> {nfat['size']} bytes, "
          f"{len(nc)} containers, {kept} entries kept, {removed} removed; "
          f"{wrappers} wrappers, {addends} addends moved")


if __name__ == "__main__":
    main()
