#pragma once
/// `tailor adopt`: the pages a team's script writes per (version, CUDA) cell,
/// read back into one [layout.pages] template (page_template.hpp). Each page
/// is cut into what comes before its SM sections, the sections (headed
/// "SM90"; their rows, one per CPU target, collapsed into a {#target} block),
/// and what follows (a list of the SMs the cell lacks becomes a {#missing}
/// block); the cell's, SM's and target's facts are put back as words, and the
/// text a row writes per target is data ([layout.targets]). The template must
/// give every page back, with the SMs the page lists, except at lines check
/// reports or facts a table corrects; a page that does not fit stays out of it.

#include <map>
#include <set>
#include <string>
#include <vector>

#include "import/layout_import.hpp"
#include "kb/knowledge_base.hpp"
#include "matrix/expand.hpp"
#include "recipe/source_file.hpp"

namespace tailor {

struct PageFit {
  std::string path;                                         ///< the path template; empty: no template
  std::string text;                                         ///< the text template
  std::map<std::string, std::vector<std::string>> targets;  ///< [layout.targets]
  std::vector<std::string> fitted;                          ///< the pages the template gives back
  std::map<std::string, std::string> unfit;                 ///< a page -> why the template does not give it back
  std::string why;                                          ///< why no template, when path is empty
};

/// Fits one template to \a pages (files of one folder), for \a spec and its matrix \a m; \a li
/// holds the team's facts, \a reported the lines check reports per file.
PageFit fit_pages(const std::vector<const recipe::SourceFile*>& pages, const Spec& spec, const Matrix& m,
                  const KnowledgeBase& kb, const LayoutImport& li,
                  const std::map<std::string, std::set<int>>& reported);

}  // namespace tailor
