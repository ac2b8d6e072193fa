#pragma once
/// Which release of another package a release of a companion is made for
/// ([[package.pairing]] tables: torchvision 0.24 for torch 2.9).

#include <string>
#include <string_view>

#include "kb/knowledge_base.hpp"
#include "util/version_spelling.hpp"

namespace tailor {

struct PairedRelease {
  std::string release;    ///< major.minor of the other package ("2.9"); empty: no table lists the version
  bool or_newer = false;  ///< the table writes "2.11+": that release and every later one (a stable ABI)
  /// "2.9", "2.11 or newer".
  std::string text() const { return or_newer ? release + " or newer" : release; }
  const VersionPairing* table = nullptr;
};

/// The release of the package whose attribute is \a with_attribute that \a p's
/// tables make \a version of \a p for.
PairedRelease paired_release(const PackageDef& p, std::string_view version, std::string_view with_attribute,
                             const KnowledgeBase& kb);

/// Whether \a version of \a p built against \a with_version of \a with_attribute
/// is off its table (the table lists \a version with another release).
bool off_table(const PackageDef& p, std::string_view version, std::string_view with_attribute,
               std::string_view with_version, const KnowledgeBase& kb);

}  // namespace tailor
