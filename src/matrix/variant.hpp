#pragma once
/// A variant: one package built for one (python, cuda, sm, isa, platform, pin)
/// cell, and the name its package's template gives it.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kb/knowledge_base.hpp"

namespace tailor {

struct Variant {
  std::string name;                             ///< "pytorch-python313-cuda12_9-sm90-avx512"
  std::string package;                          ///< a package of packages.toml, "pytorch"
  std::string backend;                          ///< a backend of packages.toml, "cuda"
  Accelerator accelerator = Accelerator::none;  ///< the backend's device
  std::string python;                           ///< "3.13"; empty for top-level packages
  std::string cuda;                             ///< "12.9"; empty unless the backend has the cuda axis
  std::string sm;  ///< "9.0", or the name of an SM set ("all"); empty unless the backend has the sm axis
  /// The SMs of a set variant (sm names the set), in the spec's order; empty for one SM.
  std::vector<std::string> sm_set;
  std::string isa;       ///< "avx512"; empty unless the backend has the isa axis
  std::string platform;  ///< "x86_64-linux", "aarch64-linux", "aarch64-darwin"
  std::string pin;       ///< short revision, "6a030d5"
  std::string family;    ///< the spec family that produced it
  /// Packages it builds inside its own recipe (Family::inline_packages).
  std::vector<std::string> inline_packages;
  /// package -> version it builds (requested or the pin's): its own, then
  /// those of the packages it builds against; packages with a pinned version only.
  std::vector<std::pair<std::string, std::string>> versions;
  /// Of a family with versions ([[family.version]]): the version of its package,
  /// what that version pairs with (attribute -> version, "torch" -> "2.12.0"),
  /// the package word of its name ("torchvision026") and its index in the family.
  std::string version;
  std::vector<std::pair<std::string, std::string>> paired;
  std::string package_word;
  std::string pairing;  ///< its version's pairing tag ("pt212"); empty: none
  int version_index = -1;

  /// Every SM it targets: the set's, or the one SM; empty without the sm axis.
  std::vector<std::string> sms() const {
    return !sm_set.empty() ? sm_set : sm.empty() ? std::vector<std::string>{} : std::vector<std::string>{sm};
  }
  /// The version of \a package this variant builds; empty when unknown.
  std::string version_of(std::string_view package) const;
};

/// The name of \a v by its package's template; the KB gives the tokens, spelled
/// as \a spelling says when given (Family::spelling).
std::string variant_name(const Variant& v, const KnowledgeBase& kb,
                         const std::map<std::string, std::string>* spelling = nullptr);

/// Axis tokens of a name ("python313", "cuda12_9", "sm90", "avx512").
struct NameTokens {
  std::string_view python, cuda, sm, isa;
  /// The spec's spelling of tokens (Family::spelling); null: the KB's own.
  const std::map<std::string, std::string>* spelling = nullptr;
  /// The package word of a versioned package ("torchvision026"); empty: the package's name.
  std::string_view package_word = {};
};

/// The same name from ready tokens; tokens that do not apply are ignored.
std::string variant_name_from_tokens(const PackageDef& package, const BackendDef& backend, const NameTokens& tokens);

}  // namespace tailor

namespace tailor {

/// The package word a name begins with: the longest package of the knowledge base
/// it starts with, and a version word after it ("torchvision025", "pytorch210"),
/// perhaps with a pairing word ("torchaudio211-pt212"). The one reading of
/// package words: names (parse_variant_name), check and import share it.
struct PackageWord {
  const PackageDef* package = nullptr;
  std::string word;        ///< as written: "torchaudio211-pt212", or the package's name
  bool versioned = false;  ///< a version word follows the package's name
};

/// nullopt when \a name starts with no package of \a kb (followed by '-', its end, or a version word).
std::optional<PackageWord> read_package_word(std::string_view name, const KnowledgeBase& kb);

/// Reads a name back into package, backend, python, cuda, sm and isa with the
/// templates of the knowledge base's packages (pin and family stay empty). On
/// failure returns nullopt and sets \a problem to what is wrong with the name.
std::optional<Variant> parse_variant_name(std::string_view name, const KnowledgeBase& kb, std::string& problem);

}  // namespace tailor
