#pragma once
/// Compaction: after pruning, the kept fatbin containers move together at the
/// front of .nv_fatbin (or __nv_relfatbin, below) and the freed bytes leave the file, so its apparent size
/// falls (a pip install, a NAR, a container layer keep no holes).
///
/// Every virtual address the code uses stays. Only the containers move, and the
/// only references to them are the __fatBinC_Wrapper_t records of
/// .nvFatBinSegment, each relocated by an R_*_RELATIVE dynamic relocation: the
/// stored pointer and the addend move with the container; any other reference
/// into .nv_fatbin refuses compaction. The bytes after .nv_fatbin keep their
/// addresses by moving their file offsets down by a whole number of segment
/// alignments (p_offset ≡ p_vaddr mod p_align stays true). Within the
/// fatbin's own PT_LOAD the sections after it (.eh_frame_hdr, .eh_frame, ...)
/// cannot move in the file without moving in memory, so that segment ends at
/// the compacted fatbin and its read-only tail joins the next, writable
/// PT_LOAD, whose PT_GNU_RELRO is extended over it: read-only again once
/// relocated, and no program header is added (a new one would need room at the
/// front of the file that linkers leave none of, and strip would refuse it).
///
/// One section can shrink so: .nv_fatbin, or __nv_relfatbin (relocatable
/// device code, -rdc: nccl, nvshmem) where it frees more. Its wrappers and
/// relocations are the same; the two sit in one read-only segment, and a second
/// hole in the tail that joins the writable segment would need a program header
/// of its own. The other section's changed containers are pruned where they
/// land (their freed bytes stay zeros), as without compaction.
///
/// The file is read through binfmt/elf_file (segments, relocations, symbols);
/// this file holds the layout decisions and the patches it writes.
///
/// Why tailor's own ELF code and not elfutils' libelf (ELF_F_LAYOUT): with
/// ELF_F_LAYOUT libelf leaves every offset to the caller, so the layout
/// decisions above are the same code either way; libelf reads each section it
/// touches whole into memory (a 300 MB .nv_fatbin, gigabytes for a wheel's
/// libraries) and knows nothing of segments, relocations or fatbins. The
/// rewrite here is a list of copies and small patches streamed file to file.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "binfmt/byte_slice.hpp"
#include "binfmt/elf_file.hpp"
#include "prune/fatbin_rewrite.hpp"

namespace tailor {

/// Where a compacted file is written: bytes, copies from the source, and its end.
class CompactSink : public ByteSink {
 public:
  /// Copies \a length bytes at \a from in the source to \a to here (to <= from;
  /// to == from is a no-op when the source is the sink's own file).
  virtual void copy(uint64_t to, uint64_t from, uint64_t length) = 0;
  virtual void truncate(uint64_t size) = 0;
};

struct CompactionPlan {
  std::string refused;  ///< why the file keeps its size (holes instead); empty: compacted
  uint64_t old_size = 0, new_size = 0;
  struct Move {
    uint64_t from = 0, to = 0;  ///< container offsets in the file
    uint64_t new_bytes = 0;     ///< header and kept entries
    size_t container = 0;       ///< in the RewritePlan
  };
  struct Copy {
    uint64_t to = 0, from = 0, length = 0;
  };
  struct Patch {
    uint64_t to = 0;
    std::vector<uint8_t> bytes;
  };
  std::vector<Move> moves;                           ///< the holes' containers, in order
  std::vector<Move> rewrites;                        ///< other containers that lose entries, pruned where they land
  uint64_t head_end = 0;                             ///< [0, head_end) stays where it is
  std::vector<std::pair<uint64_t, uint64_t>> zeros;  ///< [from, to): slack left zero
  std::vector<Copy> copies;                          ///< ascending, each to <= from
  std::vector<Patch> patches;                        ///< headers, relocations, wrappers, symbols (new offsets)
  /// Both fatbin sections cut: the PT_NOTE program header became a PT_LOAD.
  bool note_header_reused = false;

  /// Planned and possible: a plan never made (--no-compact, nothing to remove)
  /// has new_size 0 and compacts nothing; it once truncated the output to 0 bytes.
  bool compacts() const { return refused.empty() && new_size > 0; }
  uint64_t saved() const { return compacts() ? old_size - new_size : 0; }
};

struct CompactionOptions {
  /// Where two fatbin sections can both leave the file and that cuts more than
  /// one: turn the PT_NOTE program header into the PT_LOAD it takes.
  bool reuse_note_header = false;
};

/// Plans the compaction of \a elf after \a rewrite (plan_rewrite's). Never
/// throws for a layout it does not handle: says why in `refused` (with
/// reuse_note_header, the plan and reason of one hole where two do not apply).
CompactionPlan plan_compaction(const ElfFile& elf, const RewritePlan& rewrite, const CompactionOptions& options = {});

/// Writes the compacted file: from \a source (the original, or the very file
/// \a sink writes: every byte moves towards the front, read before written).
void apply_compaction(const CompactionPlan& plan, const RewritePlan& rewrite, const ByteReader& source,
                      CompactSink& sink);

}  // namespace tailor
