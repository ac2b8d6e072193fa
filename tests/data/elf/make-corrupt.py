#!/usr/bin/env python3
"""Writes the corrupt copies under corrupt/ from the real fixtures here.
Each is named after what is wrong with it; tailor must reject each with a
clear error (exit 2), never crash. Run from tests/data/elf/."""
import os, struct, zipfile

def section(data, name):
    shoff, = struct.unpack_from('<Q', data, 0x28)
    entsize, num, strndx = struct.unpack_from('<HHH', data, 0x3a)
    stroff = struct.unpack_from('<Q', data, shoff + strndx * entsize + 24)[0]
    for i in range(num):
        h = shoff + i * entsize
        n = struct.unpack_from('<I', data, h)[0]
        if data[stroff + n:data.index(b'\0', stroff + n)].decode() == name:
            off, size = struct.unpack_from('<QQ', data, h + 24)
            return h, off, size
    raise KeyError(name)

def write(name, data):
    with open(os.path.join('corrupt', name), 'wb') as f:
        f.write(data)

sm90 = open('sm90.so', 'rb').read()
hdr, off, size = section(sm90, '.nv_fatbin')
write('elf-header-truncated.so', sm90[:40])
shoff, = struct.unpack_from('<Q', sm90, 0x28)
write('section-table-past-end.so', sm90[:shoff + 64])
b = bytearray(sm90); struct.pack_into('<Q', b, hdr + 32, 0x7fffffff)
write('fatbin-section-past-end.so', bytes(b))
b = bytearray(sm90); struct.pack_into('<Q', b, off + 16 + 8, 0x10000000)
write('entry-size-past-container.so', bytes(b))
b = bytearray(sm90); struct.pack_into('<Q', b, off + 8, 0xfffffffffffffff0)
write('container-size-overflows.so', bytes(b))
second = off + 16 + struct.unpack_from('<Q', sm90, off + 8)[0]
second = (second + 7) & ~7
b = bytearray(sm90); struct.pack_into('<I', b, second, 0xdeadbeef)
write('second-container-bad-magic.so', bytes(b))
b = bytearray(sm90); struct.pack_into('<I', b, off + 16 + 4, 8)
write('entry-header-too-small.so', bytes(b))
b = bytearray(sm90); struct.pack_into('<H', b, 0x3e, 200)
write('section-name-table-out-of-range.so', bytes(b))

# A small wheel of the reduced sm90.so, then broken two ways.
import io
buf = io.BytesIO()
with zipfile.ZipFile(buf, 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr(zipfile.ZipInfo('small/lib/libsm90.so', (2024, 1, 1, 0, 0, 0)), sm90, zipfile.ZIP_DEFLATED)
whl = buf.getvalue()
write('wheel-truncated.whl', whl[:len(whl) // 2])
name_len, extra_len = struct.unpack_from('<HH', whl, 26)
data_at = 30 + name_len + extra_len
b = bytearray(whl)
for i in range(64):
    b[data_at + 200 + i] ^= 0x5a
write('wheel-member-corrupt.whl', bytes(b))
