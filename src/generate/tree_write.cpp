#include "generate/tree_write.hpp"

#include <fmt/format.h>

namespace tailor {

namespace fs = std::filesystem;

std::vector<const PlannedChange*> refused_changes(const std::vector<PlannedChange>& plan, const WritePolicy& policy) {
  std::vector<const PlannedChange*> out;
  for (const auto& c : plan)
    if (c.change == Change::conflict && !may_overwrite(c, policy.force, policy.named)) out.push_back(&c);
  return out;
}

Diagnostic refusal(const fs::path& root, const PlannedChange& c, std::string_view consequence) {
  Diagnostic d;
  d.path = fmt::format("{}/{}", root.string(), c.path);
  d.message = fmt::format("{}; {}", c.note, consequence);
  return d;
}

std::unique_ptr<OutputLock> lock_tree(const fs::path& root, std::ostream& err, bool write) {
  std::error_code ec;
  if (write) {
    fs::create_directories(root, ec);
    if (ec) {
      Diagnostic d;
      d.path = root.string();
      d.message = "cannot create the output directory: " + ec.message();
      throw DiagnosticError(d);
    }
  }
  if (!fs::is_directory(root, ec)) return nullptr;
  return std::make_unique<OutputLock>(root, err, write ? OutputLock::Mode::exclusive : OutputLock::Mode::shared);
}

void write_tree(const fs::path& root, const std::vector<GeneratedFile>& files, const std::vector<PlannedChange>& plan,
                const WritePolicy& policy) {
  apply_plan(root, files, plan, policy.force, policy.prune, policy.named);
}

}  // namespace tailor
