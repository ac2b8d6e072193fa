#pragma once
/// Builders of synthetic binaries for the binfmt tests: ELF files (32/64-bit,
/// either byte order) with named sections, and CUDA fatbin containers. Header
/// only; they write exactly the layouts src/binfmt documents.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tailor::test {

/// A growable byte buffer with endian-aware writes.
struct Bytes {
  std::vector<uint8_t> b;
  bool big_endian = false;

  template <class T>
  void put(T v) {
    for (size_t i = 0; i < sizeof(T); ++i) {
      size_t shift = big_endian ? (sizeof(T) - 1 - i) * 8 : i * 8;
      b.push_back(static_cast<uint8_t>(static_cast<uint64_t>(v) >> shift));
    }
  }
  template <class T>
  void put_at(size_t at, T v) {
    for (size_t i = 0; i < sizeof(T); ++i) {
      size_t shift = big_endian ? (sizeof(T) - 1 - i) * 8 : i * 8;
      b[at + i] = static_cast<uint8_t>(static_cast<uint64_t>(v) >> shift);
    }
  }
  void append(const std::vector<uint8_t>& v) { b.insert(b.end(), v.begin(), v.end()); }
  void pad_to(size_t alignment) {
    while (b.size() % alignment) b.push_back(0);
  }
  size_t size() const { return b.size(); }
};

/// One fatbin entry to write.
struct EntrySpec {
  uint16_t kind = 2;  ///< 1 PTX, 2 cubin
  uint32_t arch = 90;
  uint64_t flags = 0x11;
  uint32_t payload = 64;  ///< payload bytes (filled with 0xab)
  uint32_t header_size = 64;
  uint64_t uncompressed = 0;  ///< written at +56 when header_size >= 64
};

/// A fatbin container holding \a entries, as nvcc lays it out.
inline std::vector<uint8_t> fatbin_container(const std::vector<EntrySpec>& entries) {
  Bytes body;
  for (const auto& e : entries) {
    size_t start = body.size();
    body.put<uint16_t>(e.kind);
    body.put<uint16_t>(0x101);
    body.put<uint32_t>(e.header_size);
    body.put<uint64_t>(e.payload);
    body.b.resize(start + e.header_size, 0);
    body.put_at<uint32_t>(start + 28, e.arch);
    body.put_at<uint64_t>(start + 40, e.flags);
    if (e.header_size >= 64) body.put_at<uint64_t>(start + 56, e.uncompressed);
    body.b.resize(body.size() + e.payload, 0xab);
  }
  Bytes c;
  c.put<uint32_t>(0xBA55ED50);
  c.put<uint16_t>(1);
  c.put<uint16_t>(16);
  c.put<uint64_t>(body.size());
  c.append(body.b);
  return c.b;
}

/// An ELF file with the given named sections (PROGBITS), section headers at
/// the end, and a .shstrtab.
inline std::vector<uint8_t> elf_file(int bits, bool big_endian, uint16_t machine,
                                     const std::vector<std::pair<std::string, std::vector<uint8_t>>>& sections) {
  const bool is64 = bits == 64;
  const size_t ehsize = is64 ? 64 : 52, shentsize = is64 ? 64 : 40;
  Bytes f;
  f.big_endian = big_endian;
  f.b = {0x7f, 'E', 'L', 'F', static_cast<uint8_t>(is64 ? 2 : 1), static_cast<uint8_t>(big_endian ? 2 : 1), 1, 0};
  f.b.resize(ehsize, 0);
  std::string shstrtab(1, '\0');
  std::vector<std::pair<size_t, size_t>> placed;  // offset, size
  std::vector<size_t> name_offsets;
  for (const auto& [name, data] : sections) {
    f.pad_to(8);
    placed.emplace_back(f.size(), data.size());
    f.append(data);
    name_offsets.push_back(shstrtab.size());
    shstrtab += name + '\0';
  }
  size_t shstr_name = shstrtab.size();
  shstrtab += std::string(".shstrtab") + '\0';
  size_t shstr_off = f.size();
  f.b.insert(f.b.end(), shstrtab.begin(), shstrtab.end());
  f.pad_to(8);
  size_t shoff = f.size();
  auto header = [&](uint32_t name, uint32_t type, uint64_t off, uint64_t size) {
    f.put<uint32_t>(name);
    f.put<uint32_t>(type);
    if (is64) {
      f.put<uint64_t>(2);  // SHF_ALLOC
      f.put<uint64_t>(0);
      f.put<uint64_t>(off);
      f.put<uint64_t>(size);
      f.put<uint32_t>(0);
      f.put<uint32_t>(0);
      f.put<uint64_t>(8);
      f.put<uint64_t>(0);
    } else {
      f.put<uint32_t>(2);
      f.put<uint32_t>(0);
      f.put<uint32_t>(static_cast<uint32_t>(off));
      f.put<uint32_t>(static_cast<uint32_t>(size));
      f.put<uint32_t>(0);
      f.put<uint32_t>(0);
      f.put<uint32_t>(8);
      f.put<uint32_t>(0);
    }
  };
  header(0, 0, 0, 0);
  for (size_t i = 0; i < sections.size(); ++i)
    header(static_cast<uint32_t>(name_offsets[i]), 1, placed[i].first, placed[i].second);
  header(static_cast<uint32_t>(shstr_name), 3, shstr_off, shstrtab.size());
  const uint16_t shnum = static_cast<uint16_t>(sections.size() + 2);
  f.put_at<uint16_t>(16, 3);  // ET_DYN
  f.put_at<uint16_t>(18, machine);
  if (is64) {
    f.put_at<uint64_t>(40, shoff);
    f.put_at<uint16_t>(58, static_cast<uint16_t>(shentsize));
    f.put_at<uint16_t>(60, shnum);
    f.put_at<uint16_t>(62, static_cast<uint16_t>(shnum - 1));
  } else {
    f.put_at<uint32_t>(32, static_cast<uint32_t>(shoff));
    f.put_at<uint16_t>(46, static_cast<uint16_t>(shentsize));
    f.put_at<uint16_t>(48, shnum);
    f.put_at<uint16_t>(50, static_cast<uint16_t>(shnum - 1));
  }
  return f.b;
}

}  // namespace tailor::test
