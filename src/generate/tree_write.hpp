#pragma once
/// The one policy for writing a generated tree into a directory, shared by
/// generate, build and adopt: the directory is made and locked, a file a human
/// edited (or tailor never wrote) is overwritten only when the caller says so,
/// and a refusal names each file the same way ("DIR/PATH: error: …").

#include <filesystem>
#include <iosfwd>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "generate/tree.hpp"
#include "util/diagnostic.hpp"
#include "util/output_lock.hpp"

namespace tailor {

struct WritePolicy {
  bool force = false;           ///< overwrite generated files edited by hand (--force)
  bool prune = false;           ///< remove generated files no longer in the matrix (--prune)
  std::set<std::string> named;  ///< overwrite these, even files tailor never wrote (--overwrite PATH)
};

/// The conflicts of \a plan that \a policy may not overwrite, in plan order.
std::vector<const PlannedChange*> refused_changes(const std::vector<PlannedChange>& plan, const WritePolicy& policy);

/// "ROOT/PATH: error: NOTE; CONSEQUENCE" for the refused change \a c.
Diagnostic refusal(const std::filesystem::path& root, const PlannedChange& c, std::string_view consequence);

/// A lock on \a root for the run: exclusive when \a write (the directory is
/// made first; a DiagnosticError if it cannot be), shared for a reader; none
/// when a reader finds no directory.
std::unique_ptr<OutputLock> lock_tree(const std::filesystem::path& root, std::ostream& err, bool write);

/// apply_plan under \a policy.
void write_tree(const std::filesystem::path& root, const std::vector<GeneratedFile>& files,
                const std::vector<PlannedChange>& plan, const WritePolicy& policy);

}  // namespace tailor
