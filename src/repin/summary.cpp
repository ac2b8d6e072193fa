#include "repin/summary.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "recipe/recipe_facts.hpp"

namespace tailor::repin {

namespace {

const recipe::SourceFile* find(const std::vector<recipe::SourceFile>& files, const std::string& rel) {
  for (const auto& f : files)
    if (f.rel == rel) return &f;
  return nullptr;
}

std::string short_of(const std::string& s) {
  // Full revisions and hashes read better abbreviated in a one-line summary.
  return s.size() == 40 ? s.substr(0, 7) : s;
}

}  // namespace

std::string render_changes(const RepinPlan& plan) {
  std::string out;
  std::vector<std::string> olds;
  for (const auto& [rev, n] : plan.old_pins) olds.push_back(rev.substr(0, 7));
  out += fmt::format("repin {}: nixpkgs {} -> {} ({})", plan.root, fmt::join(olds, ", "), plan.target.rev.substr(0, 7),
                     plan.target.rev);
  if (plan.python) out += fmt::format("; Python package set -> {}", plan.python->set);
  out += "\n";
  for (const auto& k : plan.knowledge) out += "knowledge base: " + k + "\n";
  size_t files = 0;
  for (const auto& f : plan.before)
    if (f.rel.ends_with(".nix") || f.rel.ends_with(".toml") || f.rel == "README.md" || f.rel == "BUILD_MATRIX.md")
      ++files;
  if (plan.changes.empty()) {
    out += fmt::format("nothing to change: the {} read already use{} these settings\n",
                       files == 1 ? "file" : fmt::format("{} files", files), files == 1 ? "s" : "");
    return out;
  }
  out += fmt::format("changed {} of {} files:\n", plan.changes.size(), files);
  for (const auto& fc : plan.changes) {
    // Group identical changes: "pin 6a030d5 -> 0182a36 at 7:52, 30:9".
    std::vector<std::pair<std::string, std::vector<std::string>>> groups;
    for (const auto& c : fc.changes) {
      std::string key = c.from.empty() ? fmt::format("{} added ({})", c.what, c.to)
                                       : fmt::format("{} {} -> {}", c.what, short_of(c.from), short_of(c.to));
      auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == key; });
      if (it == groups.end()) it = groups.insert(groups.end(), {key, {}});
      it->second.push_back(fmt::format("{}:{}", c.line, c.column));
    }
    std::vector<std::string> parts;
    for (const auto& [key, at] : groups) parts.push_back(fmt::format("{} at {}", key, fmt::join(at, ", ")));
    out += fmt::format("  {}: {}\n", fc.rel, fmt::join(parts, "; "));
  }
  return out;
}

std::string render_diff(const RepinPlan& plan) {
  std::string out;
  for (const auto& fc : plan.changes)
    if (const recipe::SourceFile* before = find(plan.before, fc.rel))
      out += unified_diff(fc.rel, fc.rel, before->text, fc.edits, {.context = 0, .git = false});
  return out;
}

std::string render_verify(const std::vector<std::string>& items) {
  if (items.empty()) return "";
  std::string out = "still to verify:\n";
  for (const auto& i : items) out += "  - " + i + "\n";
  return out;
}

}  // namespace tailor::repin
