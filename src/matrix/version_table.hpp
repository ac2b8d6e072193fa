#pragma once
/// The version table a team's builder reads (one entry per release: its
/// version, what it pairs with, its pins per CUDA, its CPU pin, its source),
/// written from the spec's [[family.version]] entries as a block of a
/// [layout.tables] template:
///
///   {#version}            the common text of an entry, written per version of
///   …                     the spec, oldest first, words "{word@version}"
///   {#between}            (optional) the text between two entries
///   …
///   {/version}
///   {#version 0.25.0}     a version's own text (written instead of the common
///   …                     one for that version; nothing where it stands)
///   {/version}
///
/// Inside an entry, {#cuda_pin} … {/cuda_pin} repeats per CUDA version whose pin
/// is not the entry's pin ({cuda_underscore@cuda_pin}, {pin@cuda_pin}). A marker
/// alone on its line takes the line's end with it.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kb/knowledge_base.hpp"
#include "kb/source_override.hpp"
#include "matrix/expand.hpp"

namespace tailor {

/// One version of the spec's versioned package as its variants build it.
struct VersionRow {
  std::string version;                          ///< "0.27.1"
  std::string python;                           ///< "3.13": the first of its variants'
  std::string paired;                           ///< the version it pairs with ("2.12.1"); empty: none
  std::string pairing;                          ///< its pairing tag ("pt212"); empty: the version's first pairing
  std::vector<std::string> cudas;               ///< oldest first
  std::map<std::string, std::string> cuda_pin;  ///< CUDA -> short revision
  std::string cpu_pin;                          ///< short revision; empty: no CPU variant
  std::optional<GitHubSource> source;
  /// The entry's pin: that of its oldest CUDA, else its CPU pin.
  std::string pin() const;
};

/// The words of an entry are the version scope of the word table (template_words.hpp):
/// version, version_mm, paired, paired_mm, pairing (the pairing tag, "pt212"),
/// dash_pairing ("-pt212", empty where the version has no tag: a key written for both,
/// "{version_mm@version}{dash_pairing@version}-…"), python, python_nodot, pin, cpu_pin
/// (full revisions where the knowledge base records them), cuda_underscore_list,
/// source_rev, source_hash; of {#cuda_pin}: its scope, cuda_underscore and pin.

/// The spec's versions as its matrix builds them, oldest first; one per version and
/// what it pairs with (the families of one package, one per CUDA, share them; a
/// version built against two torch releases is two rows, its own block "{#version V P}").
/// A version is one to the table: a row of a version takes the CUDAs, their pins and
/// the CPU pin that another row of that version builds and it does not (the team's
/// entry of a further pairing lists the version's CUDAs, though it builds one cell).
std::vector<VersionRow> version_rows(const Spec& spec, const Matrix& m, const KnowledgeBase& kb);

/// The value of \a word for \a row; nullopt when it has none.
std::optional<std::string> version_word(std::string_view word, const VersionRow& row, const KnowledgeBase& kb);

/// \a tmpl with its {#version} blocks written out; the text around them as it is.
/// Throws DiagnosticError naming \a path for an unclosed block or a word without a value.
std::string render_version_blocks(std::string_view path, std::string_view tmpl, const Spec& spec, const Matrix& m,
                                  const KnowledgeBase& kb);

}  // namespace tailor
