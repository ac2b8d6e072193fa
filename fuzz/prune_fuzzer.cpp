// Fuzz target for the fatbin rewriter: any byte string is either refused with
// a DiagnosticError (left exactly as it was), or pruned into an image whose
// bytes outside .nv_fatbin are unchanged, which the readers parse again, and
// whose containers hold exactly the entries the selection chose. The first
// byte picks the targets and --keep-ptx, the rest is the file.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "binfmt/elf_file.hpp"
#include "binfmt/fatbin.hpp"
#include "prune/prune_file.hpp"
#include "resource_oracle.hpp"
#include "util/diagnostic.hpp"

namespace {

using namespace tailor;

PruneTarget target(uint32_t number, std::vector<uint32_t> family) {
  return PruneTarget{std::to_string(number), number, std::move(family)};
}

// The targets of the knowledge base that exercise each rule (plain, 'a', 'f', PTX).
const std::vector<PruneTarget> kTargets = {target(61, {}),     target(75, {}),         target(86, {}),
                                           target(90, {}),     target(100, {100}),     target(103, {100, 103}),
                                           target(120, {120}), target(121, {120, 121})};

void check(bool ok) {
  if (!ok) std::abort();
}

std::vector<std::vector<std::string>> kept_lists(const std::vector<uint8_t>& image, const PruneOptions* choose) {
  auto elf = try_open_elf(ByteSlice(image.data(), image.size()));
  std::vector<std::vector<std::string>> out;
  for (const auto& s : elf->sections) {
    if (s.name != ".nv_fatbin" || !s.in_file() || s.size == 0) continue;
    auto fb = try_open_fatbin(elf->section_reader(s));
    for (const auto& c : fb->containers) {
      std::span<const FatbinEntry> entries(fb->entries.data() + c.first_entry, c.entry_count);
      ContainerChoice keep;
      if (choose) keep = choose_entries(entries, choose->targets, choose->keep_ptx);
      std::vector<std::string> names;
      for (size_t i = 0; i < entries.size(); ++i)
        if (!choose || keep.keep[i])
          names.push_back(entries[i].arch_name() + "@" + std::to_string(entries[i].stored_bytes()));
      out.push_back(names);
    }
  }
  return out;
}

}  // namespace

TAILOR_FUZZ_TARGET(data, size) {
  if (size < 1) return 0;
  PruneOptions opts;
  opts.targets.push_back(kTargets[data[0] % kTargets.size()]);
  if (data[0] & 0x08) opts.targets.push_back(kTargets[(data[0] >> 4) % kTargets.size()]);
  opts.keep_ptx = data[0] & 0x80;
  const std::vector<uint8_t> original(data + 1, data + size);
  std::vector<uint8_t> image = original;
  RewritePlan plan;
  try {
    auto elf = try_open_elf(ByteSlice(original.data(), original.size()));
    if (!elf) return 0;
    plan = plan_rewrite(*elf, opts.targets, opts.keep_ptx);
    prune_elf_bytes("fuzz", image, opts);
  } catch (const DiagnosticError&) {
    check(image == original);  // refused: nothing changed
    return 0;
  }
  // Outside the fatbin sections, not a byte changed.
  std::vector<bool> inside(original.size(), false);
  for (const auto& [a, b] : plan.sections)
    for (uint64_t i = a; i < b; ++i) inside[i] = true;
  for (size_t i = 0; i < original.size(); ++i) check(inside[i] || image[i] == original[i]);
  // The readers parse the result, and it holds what the selection chose.
  try {
    check(kept_lists(image, nullptr) == kept_lists(original, &opts));
  } catch (const DiagnosticError&) {
    std::abort();
  }
  return 0;
}
