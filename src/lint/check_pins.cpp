// TLR004 pin-multiple, TLR005 pin-no-sha256, TLR006 pin-unknown.
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lint/checks.hpp"

namespace tailor::lint {

namespace {

const NixpkgsPin* find_pin(const KnowledgeBase& kb, const std::string& rev) {
  if (const NixpkgsPin* p = kb.pin(rev)) return p;
  for (const auto& p : kb.pins)
    if (rev.size() >= 7 && p.rev.starts_with(rev)) return &p;
  return nullptr;
}

std::string short_rev(const std::string& rev) { return rev.substr(0, 7); }

}  // namespace

void check_pins(const LintTree& t, const KnowledgeBase& kb, Sink& sink) {
  // rev (short) -> files using it, and per-CUDA grouping.
  std::map<std::string, int> uses;
  std::map<std::string, std::set<std::string>> by_cuda;  // cuda -> revs
  for (const auto& f : t.nix) {
    if (!f.parsed) continue;
    for (const auto& p : f.facts.pins) {
      const NixpkgsPin* known = find_pin(kb, p.rev);
      if (!known)
        sink.add(
            f, "TLR006", p.span, fmt::format("nixpkgs pin {} is not in the knowledge base", p.rev),
            fmt::format("known pins: {}; tailor cannot check what this pin provides", fmt::join(kb.pin_names(), ", ")));
      if (!p.sha256_written) {
        std::string hint = known && !known->sha256.empty()
                               ? fmt::format("add sha256 = \"{}\";", known->sha256)
                               : "add the tarball's sha256 (nix-prefetch-url --unpack URL) so evaluation is pure";
        sink.add(f, "TLR005", p.span,
                 fmt::format("nixpkgs {} is fetched without sha256: evaluation is impure and the tarball unchecked",
                             short_rev(p.rev)),
                 hint);
      } else if (p.sha256_null && known && !known->sha256.empty()) {
        sink.add(f, "TLR005", p.span,
                 fmt::format("nixpkgs {} has sha256 = null, but the knowledge base knows its hash", short_rev(p.rev)),
                 fmt::format("set sha256 = \"{}\";", known->sha256));
      }
      if (f.is_recipe()) {
        uses[short_rev(p.rev)]++;
        by_cuda[f.variant ? f.variant->cuda : ""].insert(short_rev(p.rev));
      }
    }
  }
  if (uses.size() <= 1) return;
  // Spec-style grouping: one pin per CUDA version, or per (package version, CUDA)
  // where names carry a version word ("vllm013"); CPU/MPS recipes on one of those pins.
  auto group_of = [](const auto& f) {
    if (!f.variant) return std::string();
    return f.variant->package_word.empty() ? f.variant->cuda : f.variant->package_word + "|" + f.variant->cuda;
  };
  std::map<std::string, std::map<std::string, int>> group_uses;  // group -> rev -> recipes
  for (const auto& f : t.nix)
    if (f.parsed && f.is_recipe())
      for (const auto& p : f.facts.pins) group_uses[group_of(f)][short_rev(p.rev)]++;
  auto majority_of = [&](const std::map<std::string, int>& revs) {
    std::string best;
    for (const auto& [rev, n] : revs)
      if (best.empty() || n > revs.at(best) || (n == revs.at(best) && uses[rev] > uses[best])) best = rev;
    return best;
  };
  std::set<std::string> cuda_pins;
  std::vector<std::string> groups;  // "CUDA 12.9: 0182a36", "vllm013 on CUDA 12.9: ed142ab"
  bool by_version = false;
  for (const auto& [group, revs] : group_uses) {
    if (group.empty()) continue;
    cuda_pins.insert(majority_of(revs));
    size_t bar = group.find('|');
    by_version = by_version || bar != std::string::npos;
    std::string cuda = bar == std::string::npos ? group : group.substr(bar + 1);
    std::string where = cuda.empty() ? "without CUDA" : "CUDA " + cuda;
    groups.push_back(bar == std::string::npos ? fmt::format("{}: {}", where, majority_of(revs))
                                              : fmt::format("{} {}: {}", group.substr(0, bar),
                                                            cuda.empty() ? where : "on " + where, majority_of(revs)));
  }
  // The grouping the tree's names explain, in words: what a second pin is expected per.
  std::string grouping = groups.empty() ? "one pin for the whole tree"
                         : by_version
                             ? "one pin per package version and CUDA version (CPU and MPS recipes on one of them)"
                             : "one pin per CUDA version (CPU and MPS recipes on one of them)";
  std::string global = majority_of(uses);
  std::vector<std::string> all;
  for (const auto& [rev, n] : uses) all.push_back(fmt::format("{} ({} recipe{})", rev, n, n == 1 ? "" : "s"));
  for (const auto& f : t.nix) {
    if (!f.parsed || !f.is_recipe()) continue;
    std::string cuda = group_of(f);
    const auto& revs = group_uses[cuda];
    for (const auto& p : f.facts.pins) {
      std::string rev = short_rev(p.rev);
      std::string expected, scope;
      int n = 0;
      if (!cuda.empty()) {
        expected = majority_of(revs);
        n = revs.at(expected);
        const std::string& word = f.variant->package_word;
        scope = word.empty()              ? fmt::format("for CUDA {}", cuda)
                : f.variant->cuda.empty() ? fmt::format("for {} without CUDA", word)
                                          : fmt::format("for {} on CUDA {}", word, f.variant->cuda);
      } else if (cuda_pins.empty()) {
        expected = global;
        n = uses[global];
        scope = "of this tree";
      } else {
        if (cuda_pins.count(rev)) continue;
        expected = global;
        n = uses[global];
        scope = "of this tree";
      }
      if (rev == expected) continue;
      Problem& pr = sink.add(f, "TLR004", p.span,
                             fmt::format("nixpkgs pin {} differs from {}, the pin of {} other recipe{} {}; grouping "
                                         "inferred from the names: {}",
                                         rev, expected, n, n == 1 ? "" : "s", scope, grouping),
                             "one branch, one pin: a second pin is only expected per CUDA version (as tailor's specs "
                             "group them)");
      if (pr.rule) {
        pr.notes.push_back(fmt::format("pins in this tree: {}", fmt::join(all, ", ")));
        if (!groups.empty()) pr.notes.push_back(fmt::format("inferred groups: {}", fmt::join(groups, "; ")));
      }
    }
  }
}

}  // namespace tailor::lint
