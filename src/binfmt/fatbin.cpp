#include "binfmt/fatbin.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace tailor {

namespace {

constexpr uint64_t kContainerHeaderMin = 16;
constexpr uint64_t kEntryHeaderMin = 48;  // up to and including the flags
constexpr uint64_t kContainerAlign = 8;

FatbinKind kind_of(uint16_t raw) {
  switch (raw) {
    case 1: return FatbinKind::ptx;
    case 2: return FatbinKind::sass;
    case 4: return FatbinKind::sass;  // old-style cubin
    case 8: return FatbinKind::nvvm;
    default: return FatbinKind::other;
  }
}

bool all_zero(ByteSlice s) {
  for (uint64_t i = 0; i < s.size(); ++i)
    if (s.data()[i] != 0) return false;
  return true;
}

// Reads the entry header at \a at (inside the section); \a end is its container's end.
FatbinEntry read_entry(const ByteReader& section, uint64_t at, uint64_t end, std::vector<uint8_t>& buf) {
  ByteSlice fixed = section.read(at, std::min<uint64_t>(64, end - at), "fatbin entry header", buf);
  if (fixed.size() < kEntryHeaderMin) fixed = section.read(at, kEntryHeaderMin, "fatbin entry header", buf);
  FatbinEntry e;
  e.offset = at;
  e.raw_kind = fixed.read_le<uint16_t>(0, "entry kind");
  e.kind = kind_of(e.raw_kind);
  e.version = fixed.read_le<uint16_t>(2, "entry version");
  e.header_size = fixed.read_le<uint32_t>(4, "entry header size");
  e.payload_size = fixed.read_le<uint64_t>(8, "entry payload size");
  e.arch = fixed.read_le<uint32_t>(28, "entry arch");
  e.flags = fixed.read_le<uint64_t>(40, "entry flags");
  if (e.header_size < kEntryHeaderMin)
    throw_format_error(
        fmt::format("corrupt fatbin: entry at offset {:#x} has a header of {} bytes (at least {} expected)",
                    section.base() + at, e.header_size, kEntryHeaderMin));
  uint64_t stop = checked_add(checked_add(at, e.header_size, "fatbin entry"), e.payload_size, "fatbin entry");
  if (stop > end)
    throw_format_error(fmt::format(
        "corrupt fatbin: entry at offset {:#x} ({} header + {} payload bytes) extends {} bytes past its container",
        section.base() + at, e.header_size, e.payload_size, stop - end));
  if (e.flags & 0x8000)
    e.compression = FatbinCompression::zstd;
  else if (e.flags & 0x2000)
    e.compression = FatbinCompression::lz4;
  e.uncompressed_size = e.payload_size;
  if (e.compression != FatbinCompression::none && e.header_size >= 64)
    e.uncompressed_size = fixed.read_le<uint64_t>(56, "entry uncompressed size");
  return e;
}

}  // namespace

char FatbinEntry::suffix() const {
  if (flags & kFlagArchSpecific) return 'a';
  if (flags & kFlagFamilySpecific) return 'f';
  return '\0';
}

std::string FatbinEntry::arch_name() const {
  std::string sfx = suffix() ? std::string(1, suffix()) : std::string();
  switch (kind) {
    case FatbinKind::sass: return fmt::format("sm_{}{}", arch, sfx);
    case FatbinKind::ptx: return fmt::format("compute_{}{}", arch, sfx);
    case FatbinKind::nvvm: return fmt::format("nvvm_{}{}", arch, sfx);
    case FatbinKind::other: break;
  }
  return fmt::format("kind{}_{}", raw_kind, arch);
}

uint64_t Fatbin::overhead() const {
  uint64_t claimed = 0;
  for (const auto& e : entries) claimed += e.stored_bytes();
  return size - claimed;
}

std::optional<Fatbin> try_open_fatbin(ByteSlice section) { return try_open_fatbin(SliceReader(section)); }

std::optional<Fatbin> try_open_fatbin(const ByteReader& section) {
  std::vector<uint8_t> buf;
  const uint64_t size = section.size();
  if (size < 4 || section.read(0, 4, "fatbin magic", buf).read_le<uint32_t>(0, "fatbin magic") != kFatbinMagic)
    return std::nullopt;
  Fatbin fb;
  fb.size = size;
  uint64_t at = 0;
  while (at < size) {
    // Between containers only zero padding (alignment, or a zero tail) may appear.
    if (size - at < 4 ||
        section.read(at, 4, "fatbin magic", buf).read_le<uint32_t>(0, "fatbin magic") != kFatbinMagic) {
      uint64_t next = std::min(checked_align_up(at + 1, kContainerAlign, "fatbin padding"), size);
      if (!all_zero(section.read(at, next - at, "fatbin padding", buf)))
        throw_format_error(fmt::format("corrupt fatbin: expected a container (magic {:#x}) at offset {:#x}",
                                       kFatbinMagic, section.base() + at));
      at = next;
      continue;
    }
    ByteSlice head = section.read(at, kContainerHeaderMin, "fatbin container header", buf);
    FatbinContainer c;
    c.offset = at;
    c.version = head.read_le<uint16_t>(4, "container version");
    c.header_size = head.read_le<uint16_t>(6, "container header size");
    c.payload_size = head.read_le<uint64_t>(8, "container payload size");
    if (c.header_size < kContainerHeaderMin)
      throw_format_error(fmt::format("corrupt fatbin: container at offset {:#x} has a header of {} bytes",
                                     section.base() + at, c.header_size));
    const uint64_t after_header = size - at - std::min<uint64_t>(c.header_size, size - at);
    if (c.payload_size > after_header)
      throw_format_error(
          fmt::format("corrupt fatbin: container at offset {:#x} claims {} payload bytes, only {} remain",
                      section.base() + at, c.payload_size, after_header));
    const uint64_t end = at + c.header_size + c.payload_size;  // <= size: checked above
    c.first_entry = fb.entries.size();
    uint64_t e = at + c.header_size;
    while (e < end) {
      if (end - e < kEntryHeaderMin && all_zero(section.read(e, end - e, "fatbin entry", buf))) break;  // zero tail
      FatbinEntry entry = read_entry(section, e, end, buf);
      e += entry.stored_bytes();
      entry.container = fb.containers.size();
      fb.entries.push_back(entry);
    }
    c.entry_count = fb.entries.size() - c.first_entry;
    fb.containers.push_back(c);
    at = end;
  }
  return fb;
}

}  // namespace tailor
