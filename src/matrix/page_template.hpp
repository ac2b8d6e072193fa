#pragma once
/// A [layout.pages] template: one page per (package version, CUDA) cell of the
/// matrix, its path and text templates over the cell's words. The parts a
/// team's script repeats per SM the cell builds, per CPU target of that SM and
/// per SM the cell lacks are blocks, so a cell the spec gains later gets its
/// page. The syntax is small and closed:
///
///   {word@cell} {word@sm} {word@target} {word@missing}  a word of the scope
///   {word@KEY}                     a table word (table_words.hpp), "{driver@12.8}"
///   {#sm} … {/sm}                  per SM the cell builds, oldest first
///   {#target} … {/target}          inside {#sm}: per CPU target of that SM, in the matrix's order
///   {#missing} … {/missing}        per SM the matrix builds elsewhere but not in this cell
///   {#if COND} … {#else} … {/if}   COND: missing (the cell lacks an SM), aarch64_only and
///                                  x86_64_only (the SM is built for that platform alone, where
///                                  the cell builds for both), later (the cell's CUDA is after
///                                  the missing SM's last), last (the last item of the block around)
///
/// A marker alone on its line takes the line's newline with it. Any other brace is text.

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "matrix/expand.hpp"

namespace tailor {

/// The words of each scope are the word table's (template_words.hpp). cell: version
/// ("0.26.0"), version_mm ("0.26"), version_mm_nodot ("026"), the paired package's version
/// and major.minor ({torch}, {torch_mm}: named by the pairing), cuda, cuda_underscore,
/// driver, python and python_nodot (a cell of one Python), pythons ("3.12, 3.13"); sm and
/// missing: sm, sm_nodot, arch_name, gpu_names (the names of its first target's platform);
/// missing also first_cuda and last_cuda (the CUDA versions the matrix builds the SM with);
/// target: isa, isa_display, arch, gpu_names, text, text_2 … text_9 (the target's texts of
/// [layout.targets]).
inline constexpr std::string_view kPageConditions[] = {"missing", "aarch64_only", "x86_64_only", "later", "last"};

/// How deep blocks and conditions may nest.
inline constexpr size_t kMaxPageNesting = 64;

/// A bad template: what is wrong, at which byte of the text.
struct PageTemplateError : std::runtime_error {
  size_t offset;
  PageTemplateError(size_t at, const std::string& what) : std::runtime_error(what), offset(at) {}
};

struct PageNode {
  enum class Kind { text, word, block, cond } kind = Kind::text;
  std::string text;  ///< text; word: "name@scope"; block: "sm", "target", "missing"; cond: the condition
  size_t offset = 0;
  std::vector<PageNode> body, otherwise;  ///< a block's body; a condition's two branches
};

/// Parses \a text; throws PageTemplateError at the first unknown word, block or condition,
/// a block where its scope is missing, or an unclosed or stray marker. \a paired: the
/// paired packages' attributes (paired_attributes), which name their words.
std::vector<PageNode> parse_page_template(std::string_view text, const std::vector<std::string>& paired);

/// A target of an SM in a cell: its CPU target and platform's arch ("x86_64").
struct PageTarget {
  std::string isa, arch;
};
struct PageSm {
  std::string sm;
  std::vector<PageTarget> targets;
};

/// One (package, version, CUDA) cell of a matrix.
struct PageCell {
  std::string package, version, cuda;
  std::vector<std::string> pythons;
  std::map<std::string, std::string> words;  ///< the cell's words ({word@cell})
  std::vector<PageSm> sms;                   ///< the SMs it builds, oldest first
  std::vector<std::string> missing;          ///< SMs of its package and version the cell lacks, oldest first
  /// What it pairs with that names words ("torch" -> "2.11.0": {torch@cell}), as variant_paired.
  std::vector<std::pair<std::string, std::string>> paired;

  /// The attributes of paired: the names of its paired words.
  std::vector<std::string> paired_attributes() const;
};

/// The cells of \a m: its CUDA variants by package, version and CUDA, in the matrix's order.
std::vector<PageCell> page_cells(const Spec& spec, const Matrix& m, const KnowledgeBase& kb);

/// Facts as the team wrote them, by table word ("driver@12.8", "gpu_names@9.0 x86_64",
/// "arch_name@9.0"): where given, they stand for the knowledge base's.
using TeamFacts = std::map<std::string, std::string>;

/// \a nodes for \a cell; throws DiagnosticError naming \a path for a word without a value.
std::string render_page(std::string_view path, const std::vector<PageNode>& nodes, const PageCell& cell,
                        const Spec& spec, const Matrix& m, const KnowledgeBase& kb, const TeamFacts* team = nullptr);

/// The words a page's path may name: the cell's words, "{version_mm}" (no @cell needed).
std::optional<std::string> page_path(std::string_view path_tmpl, const PageCell& cell);

/// The (first) CUDA the matrix builds \a sm with for \a package, and the last; empty when none.
std::pair<std::string, std::string> sm_cuda_range(const Matrix& m, const KnowledgeBase& kb, const std::string& package,
                                                  const std::string& sm);

}  // namespace tailor
