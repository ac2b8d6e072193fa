#pragma once
/// A tree that keeps its own builder ([layout] of the spec): generate writes
/// each variant's wrapper from the spec's template, without the generated-by
/// marker (the team's files stay byte for byte as its own generator wrote them),
/// and a list of those files with their hashes (kLayoutManifest), so that the
/// write policy still tells an edited wrapper from one tailor wrote.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "generate/tree.hpp"
#include "matrix/expand.hpp"
#include "matrix/page_template.hpp"

namespace tailor {

/// The list of marker-free files tailor wrote into a tree, "HASH  PATH" a line.
inline constexpr std::string_view kLayoutManifest = ".tailor-files";

/// The wrappers of every variant and the layout's tables (marker-free), and
/// kLayoutManifest; \a spec has a layout.
std::vector<GeneratedFile> layout_tree(const Spec& spec, const Matrix& m, const KnowledgeBase& kb);

/// The pages [layout.pages] \a path_tmpl writes: path and cell, one per (version, CUDA)
/// cell of \a m, but where a table of the layout writes that path or the tree keeps it.
std::vector<std::pair<std::string, PageCell>> layout_pages(const Spec& spec, const Matrix& m, const KnowledgeBase& kb,
                                                           const std::string& path_tmpl);

/// kLayoutManifest for \a files: a "HASH  PATH" line for each marker-free one, in order.
GeneratedFile layout_manifest(const std::vector<GeneratedFile>& files);

/// Where a variant's wrapper is written: Layout::dir/NAME.nix.
std::string wrapper_path(const Layout& layout, const Variant& v);

/// Path -> hash of a manifest's text (kLayoutManifest); empty when none.
std::map<std::string, std::string> read_layout_manifest(std::string_view text);

}  // namespace tailor
