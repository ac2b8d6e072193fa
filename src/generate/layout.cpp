#include "generate/layout.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "generate/marker.hpp"
#include "matrix/layout_words.hpp"
#include "matrix/page_template.hpp"
#include "matrix/table_words.hpp"
#include "matrix/template_words.hpp"
#include "util/diagnostic.hpp"

namespace tailor {

std::string wrapper_path(const Layout& layout, const Variant& v) { return layout.dir + "/" + v.name + ".nix"; }

std::vector<std::pair<std::string, PageCell>> layout_pages(const Spec& spec, const Matrix& m, const KnowledgeBase& kb,
                                                           const std::string& path_tmpl) {
  std::vector<std::pair<std::string, PageCell>> out;
  const Layout& l = *spec.layout;
  for (auto& cell : page_cells(spec, m, kb)) {
    auto path = page_path(path_tmpl, cell);
    if (!path) {
      Diagnostic d;
      d.message = fmt::format("[layout.pages] {}: a word of the path has no value for {} {} with CUDA {}", path_tmpl,
                              cell.package, cell.version, cell.cuda);
      throw DiagnosticError(d);
    }
    // A table of that path, or a page the tree keeps, is written as it says.
    if (l.tables.count(*path) || std::find(l.keep.begin(), l.keep.end(), *path) != l.keep.end()) continue;
    out.emplace_back(*path, std::move(cell));
  }
  return out;
}

std::vector<GeneratedFile> layout_tree(const Spec& spec, const Matrix& m, const KnowledgeBase& kb) {
  std::vector<GeneratedFile> files;
  const std::vector<std::string>& keep = spec.layout->keep;
  for (const auto& v : m.variants) {
    if (std::find(keep.begin(), keep.end(), wrapper_path(*spec.layout, v)) != keep.end()) continue;  // the team's
    auto t = spec.layout->wrapper.find(v.family);  // a family's own text, else its backend's
    if (t == spec.layout->wrapper.end()) t = spec.layout->wrapper.find(v.backend);
    if (t == spec.layout->wrapper.end()) {
      Diagnostic d;
      d.message = fmt::format("[layout] has no wrapper for the {} backend of {}", v.backend, v.name);
      d.hint = fmt::format("add {} = \"…\" to [layout.wrapper]", v.backend);
      throw DiagnosticError(d);
    }
    GeneratedFile f{wrapper_path(*spec.layout, v), render_layout_template(t->second, v, layout_words(v, spec, kb))};
    f.bare = true;
    files.push_back(std::move(f));
  }
  // The tables and pages: the team's text, the facts from the knowledge base.
  for (const auto& [path, tmpl] : spec.layout->tables) {
    GeneratedFile f{path, render_table_template(path, tmpl, spec, m, kb)};
    f.bare = true;
    files.push_back(std::move(f));
  }
  // The pages: one per (version, CUDA) cell of the matrix.
  for (const auto& [path_tmpl, text] : spec.layout->pages) {
    auto nodes = parse_page_template(text, paired_attributes(kb));
    for (const auto& [path, cell] : layout_pages(spec, m, kb, path_tmpl)) {
      GeneratedFile f{path, render_page(path_tmpl, nodes, cell, spec, m, kb)};
      f.bare = true;
      files.push_back(std::move(f));
    }
  }
  files.push_back(layout_manifest(files));
  return files;
}

GeneratedFile layout_manifest(const std::vector<GeneratedFile>& files) {
  std::string manifest = "# Files tailor writes without its marker (the tree's own layout): hash, path.\n";
  for (const auto& f : files)
    if (f.bare) manifest += fmt::format("{}  {}\n", content_hash(f.content), f.path);
  return {std::string(kLayoutManifest), with_marker(manifest, CommentStyle::hash)};
}

std::map<std::string, std::string> read_layout_manifest(std::string_view text) {
  std::map<std::string, std::string> out;
  size_t i = 0;
  while (i < text.size()) {
    size_t nl = text.find('\n', i);
    std::string_view line = text.substr(i, nl == std::string_view::npos ? std::string_view::npos : nl - i);
    i = nl == std::string_view::npos ? text.size() : nl + 1;
    if (line.empty() || line.front() == '#') continue;
    size_t sep = line.find("  ");
    if (sep != 16) continue;
    std::filesystem::path path(line.substr(sep + 2));
    // Only paths inside the tree: a manifest edited to name ../x must not make --prune remove it.
    bool inside = path.is_relative() && !path.empty() &&
                  std::none_of(path.begin(), path.end(), [](const std::filesystem::path& p) { return p == ".."; });
    if (inside) out[path.generic_string()] = std::string(line.substr(0, sep));
  }
  return out;
}

}  // namespace tailor
