#pragma once
/// Pruning a linked ELF file's fatbins without moving anything else: inside
/// each container of .nv_fatbin the kept entries move to the front (in their
/// order), the container's payload size shrinks to them, and the freed bytes
/// become zeros. The container stays where it is, so the __fatBinC_Wrapper_t
/// records of .nvFatBinSegment, which point at the containers, stay valid and
/// untouched; the section, its size and every byte outside it are unchanged.
/// Every write goes through a guard that refuses bytes outside .nv_fatbin.

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "binfmt/elf_file.hpp"
#include "binfmt/fatbin.hpp"
#include "prune/sm_selection.hpp"

namespace tailor {

/// Where rewritten bytes go (a file, a buffer).
class ByteSink {
 public:
  virtual ~ByteSink() = default;
  virtual void write(uint64_t offset, ByteSlice bytes) = 0;
};

/// A ByteSink over bytes in memory.
class BufferSink : public ByteSink {
 public:
  explicit BufferSink(std::span<uint8_t> buf) : buf_(buf) {}
  void write(uint64_t offset, ByteSlice bytes) override;

 private:
  std::span<uint8_t> buf_;
};

/// One container and what becomes of it; offsets are in the file.
struct ContainerPlan {
  uint64_t offset = 0;
  uint64_t header_size = 0;
  uint64_t old_payload = 0;
  uint64_t new_payload = 0;
  std::vector<FatbinEntry> entries;  ///< offsets inside the file
  ContainerChoice choice;
  bool relocatable = false;  ///< in __nv_relfatbin (relocatable device code)

  bool changes() const { return new_payload != old_payload; }
  /// The zeroed tail: [first, second) in the file.
  std::pair<uint64_t, uint64_t> freed() const;
};

struct RewritePlan {
  std::vector<std::pair<uint64_t, uint64_t>> sections;  ///< .nv_fatbin and __nv_relfatbin [offset, end) in the file
  std::vector<ContainerPlan> containers;

  bool changes() const;
  uint64_t fatbin_bytes() const;  ///< the sections' sizes
  uint64_t freed_bytes() const;
};

/// Decides what to keep in every .nv_fatbin container of \a elf. Throws
/// DiagnosticError ("unknown fatbin layout: ...") for container or entry
/// layouts it does not know, and for corrupt ones (from the reader).
RewritePlan plan_rewrite(const ElfFile& elf, std::span<const PruneTarget> targets, bool keep_ptx);

/// Writes the plan: reads entries from \a source (the original file, or the
/// very buffer \a sink writes to: entries only move towards the front, each
/// read before it is written) and writes moved entries, zeros and container
/// sizes to \a sink. Throws std::logic_error if a write would fall outside the
/// plan's sections (a bug, never input).
void apply_rewrite(const RewritePlan& plan, const ByteReader& source, ByteSink& sink);

}  // namespace tailor
