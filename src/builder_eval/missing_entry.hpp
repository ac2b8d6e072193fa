#pragma once
/// "attribute '0.27-313' missing" at a builder's `tvMetas.${metaKey}`: the
/// entry a table of the tree lacks. The selection's base is a name the builder
/// binds to `import ./torchvision-metadata.nix`; that file is the table.

#include <filesystem>
#include <optional>
#include <string>

#include "builder_eval/nix_error.hpp"

namespace tailor::builder_eval {

struct MissingEntry {
  std::string attribute;  ///< "0.27-313"
  std::string table;      ///< the table's path relative to the tree root: "lib/torchvision-metadata.nix"
};

/// The table entry \a e says is missing, when \a e is a missing attribute selected, at its
/// position, from a name its file binds to an import of a file under \a root; nullopt otherwise.
std::optional<MissingEntry> missing_entry(const NixError& e, const std::filesystem::path& root);

}  // namespace tailor::builder_eval
