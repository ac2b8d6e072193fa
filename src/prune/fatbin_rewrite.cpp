#include "prune/fatbin_rewrite.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace tailor {

namespace {

constexpr uint16_t kKnownContainerVersion = 1;
constexpr uint64_t kKnownContainerHeader = 16;
constexpr uint16_t kKnownEntryVersion = 0x101;
constexpr uint64_t kMinEntryHeader = 64;  // through the uncompressed size
constexpr uint64_t kZeroChunk = 1 << 20;

// Refuses what the rewriter was not verified against (nvcc 12.x/13.0 fatbins).
void check_known(const FatbinContainer& c, std::span<const FatbinEntry> entries, uint64_t base) {
  if (c.version != kKnownContainerVersion || c.header_size != kKnownContainerHeader)
    throw_format_error(
        fmt::format("unknown fatbin layout: container at offset {:#x} has version {} and a {}-byte header "
                    "(only version {} with {} bytes is known)",
                    base + c.offset, c.version, c.header_size, kKnownContainerVersion, kKnownContainerHeader));
  // nvcc aligns containers and pads entries to 8 bytes: compaction keeps that, so the
  // zeros it leaves read as padding.
  if (c.offset % 8 != 0)
    throw_format_error(
        fmt::format("unknown fatbin layout: container at offset {:#x} is not 8-byte aligned", base + c.offset));
  for (const auto& e : entries) {
    if (e.header_size % 8 != 0 || e.payload_size % 8 != 0)
      throw_format_error(
          fmt::format("unknown fatbin layout: entry at offset {:#x} has sizes {} + {}, not multiples of 8",
                      base + e.offset, e.header_size, e.payload_size));
    bool kind_known = e.raw_kind == 1 || e.raw_kind == 2 || e.raw_kind == 8;
    if (!kind_known || e.version != kKnownEntryVersion || e.header_size < kMinEntryHeader)
      throw_format_error(
          fmt::format("unknown fatbin layout: entry at offset {:#x} has kind {}, version {:#x} and a {}-byte "
                      "header (known: kinds 1, 2, 8; version {:#x}; at least {} bytes)",
                      base + e.offset, e.raw_kind, e.version, e.header_size, kKnownEntryVersion, kMinEntryHeader));
  }
}

bool overlap(uint64_t a, uint64_t a_size, uint64_t b, uint64_t b_size) {
  if (!a_size || !b_size) return false;
  return a >= b ? a - b < b_size : b - a < a_size;  // no sums: sizes come from untrusted headers
}

// Refuses a fatbin section that shares bytes with the ELF headers or another
// section: rewriting it would change them (linkers never lay files out so).
void check_alone(const ElfFile& elf, const ElfSection& fatbin) {
  const uint64_t header = elf.bits == 64 ? 64 : 52;
  std::string other;
  if (overlap(fatbin.offset, fatbin.size, 0, header)) other = "the ELF header";
  if (overlap(fatbin.offset, fatbin.size, elf.section_table_offset, elf.section_table_size))
    other = "the section table";
  for (const auto& s : elf.sections)
    if (&s != &fatbin && s.in_file() && overlap(fatbin.offset, fatbin.size, s.offset, s.size))
      other = fmt::format("section {}", s.name.empty() ? "(unnamed)" : s.name);
  if (!other.empty())
    throw_format_error(
        fmt::format("unknown fatbin layout: {} at offset {:#x} overlaps {}", fatbin.name, fatbin.offset, other));
}

// Refuses writes outside the fatbin sections: the invariant of the rewriter.
class GuardedSink : public ByteSink {
 public:
  GuardedSink(const RewritePlan& plan, ByteSink& inner) : plan_(plan), inner_(inner) {}
  void write(uint64_t offset, ByteSlice bytes) override {
    bool inside = std::any_of(plan_.sections.begin(), plan_.sections.end(), [&](const auto& s) {
      return offset >= s.first && offset <= s.second && bytes.size() <= s.second - offset;
    });
    if (!inside)
      throw std::logic_error(fmt::format("prune: write of {} bytes at {:#x} outside .nv_fatbin", bytes.size(), offset));
    inner_.write(offset, bytes);
  }

 private:
  const RewritePlan& plan_;
  ByteSink& inner_;
};

void write_zeros(ByteSink& sink, uint64_t from, uint64_t to) {
  static const std::vector<uint8_t> zeros(kZeroChunk, 0);
  for (uint64_t at = from; at < to;) {
    uint64_t n = std::min<uint64_t>(kZeroChunk, to - at);
    sink.write(at, ByteSlice(zeros.data(), n));
    at += n;
  }
}

void rewrite_container(const ContainerPlan& c, const ByteReader& source, ByteSink& sink) {
  std::vector<uint8_t> buf;
  uint64_t to = c.offset + c.header_size;
  for (size_t i = 0; i < c.entries.size(); ++i) {
    if (!c.choice.keep[i]) continue;
    const FatbinEntry& e = c.entries[i];
    if (e.offset != to) sink.write(to, source.read(e.offset, e.stored_bytes(), "fatbin entry", buf));
    to += e.stored_bytes();
  }
  auto [from, end] = c.freed();
  write_zeros(sink, from, end);
  uint8_t size[8];
  for (int i = 0; i < 8; ++i) size[i] = static_cast<uint8_t>(c.new_payload >> (8 * i));
  sink.write(c.offset + 8, ByteSlice(size, 8));
}

}  // namespace

void BufferSink::write(uint64_t offset, ByteSlice bytes) {
  if (offset > buf_.size() || bytes.size() > buf_.size() - offset)
    throw std::logic_error("prune: write past the end of the buffer");
  if (bytes.size()) std::memmove(buf_.data() + offset, bytes.data(), bytes.size());
}

std::pair<uint64_t, uint64_t> ContainerPlan::freed() const {
  uint64_t start = offset + header_size;
  return {start + new_payload, start + old_payload};
}

bool RewritePlan::changes() const {
  return std::any_of(containers.begin(), containers.end(), [](const auto& c) { return c.changes(); });
}

uint64_t RewritePlan::fatbin_bytes() const {
  uint64_t n = 0;
  for (const auto& [a, b] : sections) n += b - a;
  return n;
}

uint64_t RewritePlan::freed_bytes() const {
  uint64_t n = 0;
  for (const auto& c : containers) n += c.old_payload - c.new_payload;
  return n;
}

RewritePlan plan_rewrite(const ElfFile& elf, std::span<const PruneTarget> targets, bool keep_ptx) {
  RewritePlan plan;
  for (const auto& s : elf.sections) {
    // __nv_relfatbin holds relocatable device code (-rdc: nvshmem's device
    // library) in the same container format: pruned by the same rule, but its
    // PTX always stays beside the SASS, for a device link that cannot take a
    // cubin of a lower minor.
    const bool relocatable = s.name == "__nv_relfatbin";
    if ((s.name != ".nv_fatbin" && !relocatable) || !s.in_file() || s.size == 0) continue;
    check_alone(elf, s);
    WindowReader bytes = elf.section_reader(s);
    std::optional<Fatbin> fb = try_open_fatbin(bytes);
    if (!fb)
      throw_format_error(
          fmt::format("unknown fatbin layout: section {} at offset {:#x} does not start with a "
                      "container (magic {:#x})",
                      s.name, s.offset, kFatbinMagic));
    plan.sections.emplace_back(s.offset, s.offset + s.size);
    for (const auto& c : fb->containers) {
      std::span<const FatbinEntry> entries(fb->entries.data() + c.first_entry, c.entry_count);
      check_known(c, entries, s.offset);
      ContainerPlan p;
      p.offset = s.offset + c.offset;
      p.header_size = c.header_size;
      p.old_payload = c.payload_size;
      p.choice = choose_entries(entries, targets, keep_ptx || relocatable);
      p.relocatable = relocatable;
      p.entries.assign(entries.begin(), entries.end());
      for (auto& e : p.entries) e.offset += s.offset;
      p.new_payload = p.old_payload;
      if (p.choice.kept() < p.entries.size()) {
        p.new_payload = 0;
        for (size_t i = 0; i < p.entries.size(); ++i)
          if (p.choice.keep[i]) p.new_payload += p.entries[i].stored_bytes();
      }
      plan.containers.push_back(std::move(p));
    }
  }
  return plan;
}

void apply_rewrite(const RewritePlan& plan, const ByteReader& source, ByteSink& sink) {
  GuardedSink guarded(plan, sink);
  for (const auto& c : plan.containers)
    if (c.changes()) rewrite_container(c, source, guarded);
}

}  // namespace tailor
