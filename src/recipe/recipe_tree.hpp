#pragma once
/// A recipe tree as tailor reads it: every .nix file with its parse result and
/// facts, the variant its file name promises, the docs and scripts beside them.
/// Trees come from disk or memory. A file that does not parse keeps its error;
/// what that error means to a rule is the linter's (TLR001), not the tree's.

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "kb/knowledge_base.hpp"
#include "matrix/variant.hpp"
#include "recipe/fact.hpp"
#include "recipe/recipe_facts.hpp"
#include "recipe/source_file.hpp"
#include "util/diagnostic.hpp"

namespace tailor::recipe {

/// A text a tree read from disk gave back once its file's facts were read.
struct ReleasedText;

struct NixFile {
  /// src.text is empty once given back (see text()).
  SourceFile src;
  std::string display;  ///< root + "/" + rel
  std::string stem;     ///< file name without ".nix"
  bool parsed = false;
  RecipeFacts facts;
  /// lib/ builders, default.nix, flake.nix, shell.nix: no variant of their own.
  bool helper = false;
  /// A package recipe in nixpkgs' style: generic.nix, builder.nix, overlay.nix,
  /// or a file another file of the tree imports or callPackages and whose name
  /// is no variant name. It builds what its caller asks, so it has no variant of
  /// its own; its comments and lists are still read as facts.
  bool package = false;
  std::optional<Variant> variant;  ///< read from the file name
  std::string name_problem;        ///< why the file name is not a variant name
  /// How the file name spells the variant's tokens when it is off the strict
  /// pattern (recipe/spelled_name.hpp); empty for a strict name.
  std::map<std::string, std::string> spelling;
  /// Why the file is not Nix (a syntax error, or not a text file); set when !parsed.
  std::optional<Diagnostic> syntax_error;
  /// The comments of a file that does not parse, as the lexer found them (a
  /// parsed file's are facts.comments).
  std::vector<Fact> lexed_comments;

  /// Set when the text was given back: where and what to read again.
  std::shared_ptr<ReleasedText> released;

  /// The file's text as it was parsed. A tree read from disk (make_tree's
  /// read_from) gives each text back once the file's facts are read: check
  /// of a tree of large files held every text until its rules had run. What
  /// needs the text again (a finding's line, a fix, a table's evaluation)
  /// reads the file again here, once; if its bytes changed meanwhile, the
  /// text is empty (a span never points into other bytes). Thread-safe.
  const std::string& text() const;

  /// A variant recipe: its name parses, or it states a pname/variantName.
  bool is_recipe() const { return !helper && !package && (variant || !facts.names.empty()); }
  /// Its comments, parsed or not: where `# tailor: …` directives are read.
  const std::vector<Fact>& comments() const { return parsed ? facts.comments : lexed_comments; }
};

struct RecipeTree {
  std::string root;                 ///< as given by the user
  std::vector<NixFile> nix;         ///< sorted by relative path
  std::vector<SourceFile> docs;     ///< markdown at the root (README.md, BUILD_MATRIX.md, …) and under docs/
  std::vector<SourceFile> scripts;  ///< bash scripts (*.sh): a generator's arrays of facts
  std::set<std::string> files;      ///< every relative path, for import checks
};

/// Every file under \a dir, sorted, texts not read: .git, links named result*
/// (build results) and links to directories are skipped. Throws DiagnosticError
/// if \a dir is not a directory.
std::vector<SourceFile> list_tree(const std::filesystem::path& dir);

/// Reads the texts of the recipes (*.nix), docs and scripts among \a files, as
/// list_tree(\a dir) listed them.
void read_texts(const std::filesystem::path& dir, std::vector<SourceFile>& files);

/// list_tree(dir) with the texts of the recipes (*.nix), docs and scripts read.
std::vector<SourceFile> read_tree(const std::filesystem::path& dir);

/// Parses and reads the facts of \a files (see SourceFile); a file that does not
/// parse keeps its syntax_error. With \a read_from, \a files are list_tree(read_from)
/// and each text is read just before its file is parsed, on the same core (the
/// bytes are still in its cache).
RecipeTree make_tree(std::string root, std::vector<SourceFile> files, const KnowledgeBase& kb,
                     const std::filesystem::path& read_from = {});

/// The tree-relative path that \a import, written in \a from, names: normalised,
/// "default.nix" for the tree's root; it starts with ".." when it leaves the tree.
std::string import_target(const NixFile& from, std::string_view import);

/// The file of \a t that \a import, written in \a from, names (a directory: its
/// default.nix); null when the tree has none.
const NixFile* imported_file(const RecipeTree& t, const NixFile& from, std::string_view import);

/// \a f, then the files of \a t it imports or calls (`import ./lib/builder.nix { … }`),
/// transitively, each once (a directory import is its default.nix): where a thin
/// recipe's builder states its pin, sets and source overrides.
std::vector<const NixFile*> reached_from(const RecipeTree& t, const NixFile& f);

}  // namespace tailor::recipe
