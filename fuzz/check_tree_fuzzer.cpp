// Fuzz target for `tailor check` of a whole tree: recipes, the builder's
// tables, generator scripts, READMEs and pages, all untrusted text. The input
// is up to kMaxFiles files, each "PATH\n" then its text, separated by a 0x01
// byte; a path that is not a plain relative one becomes the next of
// kFallbackPaths, so every rule family (recipes, lib/ tables, scripts, docs)
// is reached. Oracles besides crash, hang and memory: every finding's line
// lies inside its file; the JSON rendering parses; every fix's edits lie
// inside the text it edits, do not overlap, and applying them gives the text
// the plan says.
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "kb/knowledge_base.hpp"
#include "lint/linter.hpp"
#include "resource_oracle.hpp"

namespace {

constexpr size_t kMaxFiles = 6;
constexpr std::string_view kFallbackPaths[] = {
    ".flox/pkgs/torchvision025-python313-cuda12_8-sm90-avx2.nix",
    ".flox/pkgs/lib/gpu-metadata.nix",
    "scripts/generate-variants.sh",
    "README.md",
    "docs/matrices/torchvision-0.25-cuda-12.8.md",
    ".flox/pkgs/lib/mkTorchVision.nix",
};

bool plain_relative_path(std::string_view p) {
  if (p.empty() || p.size() > 120 || p.front() == '/' || p.back() == '/') return false;
  if (p.find("..") != std::string_view::npos || p.find("//") != std::string_view::npos) return false;
  return std::all_of(p.begin(), p.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
           c == '-' || c == '/';
  });
}

std::vector<tailor::recipe::SourceFile> split_files(std::string_view input) {
  std::vector<tailor::recipe::SourceFile> files;
  while (files.size() < kMaxFiles) {
    size_t end = std::min(input.find('\x01'), input.size());
    std::string_view part = input.substr(0, end);
    size_t newline = std::min(part.find('\n'), part.size());
    std::string_view path = part.substr(0, newline);
    std::string rel(plain_relative_path(path) ? path : kFallbackPaths[files.size()]);
    bool taken = std::any_of(files.begin(), files.end(), [&](const auto& f) { return f.rel == rel; });
    if (!taken)
      files.push_back({rel, std::string(newline < part.size() ? part.substr(newline + 1) : std::string_view{})});
    if (end == input.size()) break;
    input.remove_prefix(end + 1);
  }
  return files;
}

size_t line_count(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
}

}  // namespace

TAILOR_FUZZ_TARGET(data, size) {
  static const tailor::KnowledgeBase kb = tailor::KnowledgeBase::load();
  std::vector<tailor::recipe::SourceFile> files =
      split_files(std::string_view(reinterpret_cast<const char*>(data), size));
  tailor::lint::CheckResult r = tailor::lint::check_files("fuzz", files, kb);
  for (const auto& p : r.problems) {
    auto f = std::find_if(files.begin(), files.end(), [&](const auto& x) { return x.rel == p.rel; });
    if (f != files.end() && p.pos.line > 0 && static_cast<size_t>(p.pos.line) > line_count(f->text))
      __builtin_trap();  // a position past the file's end
    (void)p.render();
  }
  (void)tailor::lint::render_text(r);
  if (nlohmann::json::parse(tailor::lint::render_json(r), nullptr, false).is_discarded()) __builtin_trap();
  tailor::lint::FixPlan plan = tailor::lint::plan_fixes("fuzz", r, files);
  for (const auto& fix : plan.files) {
    std::string applied;
    size_t at = 0;
    for (const auto& e : fix.edits) {
      if (e.begin < at || e.end < e.begin || e.end > fix.before.size()) __builtin_trap();  // overlap or out of range
      applied.append(fix.before, at, e.begin - at).append(e.text);
      at = e.end;
    }
    applied.append(fix.before, at);
    if (applied != fix.after) __builtin_trap();
  }
  (void)tailor::lint::render_diff(plan);
  return 0;
}
