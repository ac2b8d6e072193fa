#pragma once
/// The one table of template words: each word a [layout] wrapper, a page, a
/// table or an external recipe may name, the scopes it is valid in, the fact
/// its value derives from and how, and its kind. Each feature names the scopes
/// it admits and asks the table which words they hold, in the table's order
/// (its messages list them so); the values are the scope's facts, derived as
/// the row says. A new word is one row.
///
/// The words of a paired package are named by the pairing, not here: a row
/// named "*" stands for the attribute of each package a [[package.pairing]]
/// names ("torch" for torchvision's pairing with pytorch), "*_mm" for its
/// major.minor, so a spec's {torch} and {torch_mm} come from the data.

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tailor {

struct KnowledgeBase;

/// Where a word stands.
enum class WordScope : uint8_t {
  variant,   ///< a [layout] wrapper's {word}: one variant
  recipe,    ///< an external recipe's path and arguments: one variant
  path,      ///< a [layout.pages] path's {word}: one cell
  cell,      ///< a page's {word@cell}: one (version, CUDA) cell
  sm,        ///< a page's {word@sm}, inside {#sm}: an SM the cell builds
  missing,   ///< a page's {word@missing}, inside {#missing}: an SM the cell lacks
  target,    ///< a page's {word@target}, inside {#target}: a CPU target of the SM
  key,       ///< a table's or page's {word@KEY}: KEY an SM ("9.0", "9.0 aarch64"), a CUDA or a CPU target
  version,   ///< a version table's {word@version}: one version of the spec
  cuda_pin,  ///< {word@cuda_pin}, inside a version entry's {#cuda_pin}: a CUDA with a pin of its own
};

/// The fact a word's value derives from; each scope gives those it knows.
enum class WordFact : uint8_t {
  pkgs,         ///< the variant's nixpkgs package set (an external recipe's argument alone)
  backend,      ///< "cuda"
  version,      ///< the package's version, "0.26.0"
  paired,       ///< the version of the package it pairs with, "2.11.0"
  pairing,      ///< its pairing tag, "pt212"
  python,       ///< "3.13"
  pythons,      ///< a cell's Pythons, "3.12, 3.13"
  cuda,         ///< "12.8"
  cuda_list,    ///< the CUDA versions built with it, as Nix list items: "\"12_8\" \"12_9\""
  cuda_attr,    ///< the nixpkgs CUDA package set, "cudaPackages_12_8"
  driver,       ///< NVIDIA's minimum driver, its major ("570"), or the team's floor
  sm,           ///< "9.0"
  gpu_names,    ///< [layout.gpu_names], else the knowledge base's products
  arch_name,    ///< [layout.arch_names], else the architecture's family ("Hopper")
  first_cuda,   ///< the first CUDA the matrix builds the SM with
  last_cuda,    ///< the last one
  isa,          ///< a CPU target, "avx2"
  isa_display,  ///< "AVX2"
  isa_flags,    ///< its compiler flags, as Nix list items
  arch,         ///< the platform's arch, "x86_64"
  target_text,  ///< a CPU target's text of [layout.targets] the word names: text the first, text_N the Nth
  sm_text,      ///< an SM's text of [layout.sm_texts] the word names: sm_text the first, sm_text_N the Nth
  pin,          ///< a nixpkgs revision
  cpu_pin,      ///< the CPU builds' nixpkgs revision
  source_rev,   ///< the version's own source: its revision
  source_hash,  ///< and hash
};

/// How a word's value derives from its fact.
enum class Derive : uint8_t {
  same,               ///< the fact itself
  major_minor,        ///< "0.26.0" -> "0.26"
  major_minor_nodot,  ///< "0.26.0" -> "026"
  nodot,              ///< "3.13" -> "313"
  underscore,         ///< "12.8" -> "12_8"
  short_version,      ///< "2.10.0" -> "210": major and minor as numbers
  dash,               ///< "pt212" -> "-pt212", and "" where there is no fact
};

/// What text a word's value is: how a team's text is read back into it.
enum class WordKind : uint8_t {
  number,  ///< a version or number ("12.8", "313"): read back where no digit stands beside it
  name,    ///< an identifier ("avx2", "x86_64", "pt212"): read back where no letter stands beside it
  text,    ///< words for people ("AVX-512", a target's text)
  fact,    ///< a fact the team may write its own way (GPU names, a driver floor): learnt, not read back
  list,    ///< a list ("3.12, 3.13", Nix list items): never read back
  set,     ///< a package set, no text
};

/// One word: its name ("*" the paired package's attribute, "*_mm" and "*_short" after it).
struct TemplateWord {
  std::string_view name;
  uint16_t scopes;  ///< WordScope bits
  WordFact fact;
  Derive derive;
  WordKind kind;

  bool in(WordScope s) const { return (scopes >> static_cast<unsigned>(s)) & 1u; }
  /// Whether the name stands for a paired package's attribute.
  bool paired() const { return name.starts_with("*"); }
  /// The name for the paired attribute \a attribute ("torch_mm" for "*_mm").
  std::string name_for(std::string_view attribute) const;
};

constexpr uint16_t scopes(std::initializer_list<WordScope> s) {
  uint16_t bits = 0;
  for (WordScope x : s) bits |= static_cast<uint16_t>(1u << static_cast<unsigned>(x));
  return bits;
}

/// The rows, in the order the features list them (their messages do), grouped by
/// the features that list them: a variant's and a cell's words with a page's blocks;
/// a table's {word@KEY}; a version table's entry. A word whose scopes list it in
/// another order (a wrapper's python before cuda, a cell's after) has a row per order.
extern const std::span<const TemplateWord> kTemplateWords;

/// The attributes of the packages the knowledge base's pairings name
/// ([[package.pairing]] with): the paired words' names ("torch"), in its order.
std::vector<std::string> paired_attributes(const KnowledgeBase& kb);

/// The words of \a scope by name, in the table's order, "*" rows once per
/// attribute of \a paired.
std::vector<std::string> scope_words(WordScope scope, const std::vector<std::string>& paired);

/// The words of \a scope of kind \a kind, as scope_words lists them.
std::vector<std::string> scope_words(WordScope scope, const std::vector<std::string>& paired, WordKind kind);

/// The row of \a scope named \a name (a paired row where \a name is one of
/// \a paired's, with the attribute in \a attribute); null when the scope has no such word.
const TemplateWord* find_word(WordScope scope, std::string_view name, const std::vector<std::string>& paired,
                              std::string* attribute = nullptr);

/// The value \a d derives from \a fact; nullopt when there is none (no fact, or
/// a version that does not parse for short_version).
std::optional<std::string> derive(Derive d, const std::optional<std::string>& fact);

/// A scope's facts: the fact of a word (its row's fact; target_text by the word's
/// name) there; nullopt where the scope has none.
using ScopeFacts = std::function<std::optional<std::string>(const TemplateWord&)>;

/// The words of \a scope with a value (name, value), in the table's order: each
/// row's fact from \a facts, derived; a paired row once per (attribute, version)
/// of \a paired.
std::vector<std::pair<std::string, std::string>> scope_values(
    WordScope scope, const ScopeFacts& facts, const std::vector<std::pair<std::string, std::string>>& paired);

/// The value of \a name in \a scope; nullopt when the scope has no such word or it has no value.
std::optional<std::string> word_value(WordScope scope, std::string_view name, const ScopeFacts& facts);

}  // namespace tailor
