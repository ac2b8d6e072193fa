#pragma once
/// The user's --rev, --sha256 and --python-set values, validated before
/// anything is read or written.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kb/knowledge_base.hpp"

namespace tailor::repin {

/// The pin to move to: its full revision and what the knowledge base knows of it.
struct TargetPin {
  std::string rev;                    ///< 40 lowercase hex digits
  const NixpkgsPin* known = nullptr;  ///< null: unknown to the knowledge base
};

/// --rev: 40 hex digits, or a short form the knowledge base resolves.
/// Throws DiagnosticError (message tested verbatim) otherwise.
TargetPin parse_rev(const std::string& rev, const KnowledgeBase& kb);

/// The form of a sha256 hash as Nix writes it.
enum class HashFormat { nix32, base16, sri };

/// The format of \a hash, or nullopt if it is none of Nix's sha256 spellings.
std::optional<HashFormat> hash_format(std::string_view hash);

/// --sha256: validated; throws DiagnosticError for a malformed hash.
std::string parse_sha256(const std::string& hash);

/// What lib.fakeSha256 / lib.fakeHash would be in \a format: a hash that no
/// download matches, so the fetch fails and prints the real one.
std::string fake_hash(HashFormat format);

/// A Python package set: "python313Packages" or "python3Packages".
struct PythonSet {
  std::string set;          ///< python313Packages
  std::string interpreter;  ///< python313
  std::string version;      ///< "3.13"; empty for python3Packages (the pin's default)
};

/// --python-set; throws DiagnosticError unless it is python3Packages or python3XPackages.
PythonSet parse_python_set(const std::string& name);

/// A package-set name (python312Packages) or interpreter name (python3) as
/// PythonSet; nullopt for other names.
std::optional<PythonSet> python_name(std::string_view name);

/// The runs of 7 to 40 lowercase hex digits in \a text with no letter, digit
/// or '_' on either side, as [begin, end): where a text may spell a revision.
std::vector<std::pair<size_t, size_t>> revision_runs(std::string_view text);

/// The full revision of the knowledge-base pin \a rev abbreviates (>= 7 hex digits), or null.
const NixpkgsPin* find_pin(const KnowledgeBase& kb, std::string_view rev);

}  // namespace tailor::repin
