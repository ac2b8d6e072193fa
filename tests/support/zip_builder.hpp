#pragma once
/// A zip archive as Python's zipfile writes a wheel (local headers, central
/// directory, end record; no data descriptors, no zip64), from members whose
/// bytes are already stored or deflated. Header only, for the wheel tests.

#include <cstdint>
#include <string>
#include <vector>

#include "support/binary_builder.hpp"

namespace tailor::test {

struct ZipMember {
  std::string name;
  std::vector<uint8_t> data;  ///< as stored in the archive (raw deflate when method is 8)
  uint32_t crc = 0;           ///< CRC-32 of the unpacked bytes
  uint64_t size = 0;          ///< unpacked size
  uint16_t method = 8;        ///< 0 stored, 8 deflated
  uint16_t made_by = 20;      ///< version made by; (3 << 8) | 20 says Unix
  uint32_t external = 0;      ///< external attributes (a Unix mode in the high half)
  uint64_t zip64_size = 0;    ///< nonzero: the unpacked size, in a zip64 extra field of the central header
};

inline std::vector<uint8_t> zip_archive(const std::vector<ZipMember>& members) {
  Bytes z, dir;
  for (const auto& m : members) {
    uint32_t offset = static_cast<uint32_t>(z.size());
    z.put<uint32_t>(0x04034b50);
    z.put<uint16_t>(20);
    z.put<uint16_t>(0);
    z.put<uint16_t>(m.method);
    z.put<uint16_t>(0);
    z.put<uint16_t>(0);
    z.put<uint32_t>(m.crc);
    z.put<uint32_t>(static_cast<uint32_t>(m.data.size()));
    z.put<uint32_t>(static_cast<uint32_t>(m.size));
    z.put<uint16_t>(static_cast<uint16_t>(m.name.size()));
    z.put<uint16_t>(0);
    z.b.insert(z.b.end(), m.name.begin(), m.name.end());
    z.append(m.data);
    dir.put<uint32_t>(0x02014b50);
    dir.put<uint16_t>(m.made_by);
    dir.put<uint16_t>(20);
    dir.put<uint16_t>(0);
    dir.put<uint16_t>(m.method);
    dir.put<uint16_t>(0);
    dir.put<uint16_t>(0);
    dir.put<uint32_t>(m.crc);
    dir.put<uint32_t>(static_cast<uint32_t>(m.data.size()));
    dir.put<uint32_t>(m.zip64_size ? 0xffffffffu : static_cast<uint32_t>(m.size));
    dir.put<uint16_t>(static_cast<uint16_t>(m.name.size()));
    dir.put<uint16_t>(m.zip64_size ? 12 : 0);
    dir.put<uint16_t>(0);
    dir.put<uint16_t>(0);
    dir.put<uint16_t>(0);
    dir.put<uint32_t>(m.external);
    dir.put<uint32_t>(offset);
    dir.b.insert(dir.b.end(), m.name.begin(), m.name.end());
    if (m.zip64_size) {  // the zip64 extended information: the unpacked size alone
      dir.put<uint16_t>(0x0001);
      dir.put<uint16_t>(8);
      dir.put<uint64_t>(m.zip64_size);
    }
  }
  uint32_t dir_offset = static_cast<uint32_t>(z.size());
  z.append(dir.b);
  z.put<uint32_t>(0x06054b50);
  z.put<uint16_t>(0);
  z.put<uint16_t>(0);
  z.put<uint16_t>(static_cast<uint16_t>(members.size()));
  z.put<uint16_t>(static_cast<uint16_t>(members.size()));
  z.put<uint32_t>(static_cast<uint32_t>(dir.size()));
  z.put<uint32_t>(dir_offset);
  z.put<uint16_t>(0);
  return z.b;
}

}  // namespace tailor::test
