#pragma once
/// `tailor adopt`: the [layout] of a tree that keeps its own builder, read from
/// the tree. Each backend's wrapper files are read back into one template: the
/// variant's words are put back where the file writes them ({sm_nodot} for
/// "90"), and the text that still varies between the files, line by line, is
/// the team's GPU names (one value per SM and platform), a driver floor (one per
/// CUDA), a text per CPU target ([layout.targets]: compiler flags) or another
/// text per SM ([layout.sm_texts]). The template must give every file back byte
/// for byte, else no layout; files of their own text are kept as the team's.

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "kb/knowledge_base.hpp"
#include "matrix/expand.hpp"
#include "matrix/spec.hpp"
#include "recipe/source_file.hpp"

namespace tailor {

/// What adopt learns of a tree's layout: the [layout] itself, typed, and the
/// team's facts as its files write them, which the tables and pages are read
/// back with (table_import.hpp, page_fit.hpp).
struct LayoutImport {
  /// The layout learnt: dir, wrapper, gpu_names (the team's, corrected), keep and
  /// replaces from the wrappers; tables, pages and target_text from the tables and
  /// pages. Its drivers and arch_names are the team's below (spec_layout).
  Layout layout;
  std::string why;  ///< why the wrappers fit no template; empty when they do
  /// The team's GPU names as its files write them (uncorrected), by "SM" or "SM platform".
  std::map<std::string, std::string> team_gpu_names;
  std::map<std::string, std::string> team_driver;  ///< CUDA ("12.8") -> the floor the team's files write
  std::map<std::string, std::string> team_arch;    ///< SM -> the architecture name the team's table writes
  std::map<std::string, std::string> arch_names;   ///< the team's fair names of architectures, by SM
  /// A page (or a folder of pages) the page template does not give back -> why.
  std::map<std::string, std::string> page_why;
  /// Variants' wrappers of the team's own text (another than their backend's, and no template
  /// with their family's): kept, in layout.keep, each with why in kept_why.
  std::set<std::string> own_wrappers;
  std::map<std::string, std::string> kept_why;  ///< a kept file that holds facts -> why tailor does not write it
  /// Facts of the tree's wrappers the spec corrects, one line each ("9.0: L40S
  /// dropped: the knowledge base lists it under SM 8.9").
  std::vector<std::string> corrected;
};

/// The spec's [layout] of \a li: its layout with the team's driver floors, and the
/// team's architecture names where pages are written (a page's {arch_name@…}).
Layout spec_layout(const LayoutImport& li);

/// The [layout] section of the spec, as TOML.
std::string layout_toml(const Layout& layout);

/// The layout of the tree \a files, whose variants \a m expands from \a spec
/// (the spec import_spec wrote); the wrappers are in \a dir.
LayoutImport import_layout(const std::vector<recipe::SourceFile>& files, const Spec& spec, const Matrix& m,
                           const KnowledgeBase& kb, const std::string& dir);

/// The directory of most of \a m's variant files in \a files ("" for the root,
/// ".flox/pkgs"); nullopt when none is there.
std::optional<std::string> wrapper_dir(const std::vector<recipe::SourceFile>& files, const Matrix& m);

}  // namespace tailor
