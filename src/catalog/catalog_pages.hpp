#pragma once
/// A catalog too big for one page: the specs split into groups, one
/// self-contained page per group (each still works from file://, no
/// network), and an index page that links them. Where every spec fits one
/// page, that page alone, as before.

#include <string>
#include <vector>

#include "catalog/catalog_data.hpp"

namespace tailor {

/// The most a page may weigh (issue 47): 300 kB.
inline constexpr size_t kCatalogPageLimit = 300 * 1000;

struct CatalogPageFile {
  std::string name;  ///< "index.html", "page-2.html"
  std::string html;
  std::vector<std::string> specs;  ///< the specs it answers for, as the page names them; none for the index
  size_t variants = 0, answers = 0;
};

/// The pages for \a specs: "index.html" alone where they fit \a limit
/// together; else "page-1.html", "page-2.html", … (consecutive specs, as
/// many to a page as fit) and an "index.html" that links them. A spec whose
/// page alone is over \a limit still gets one page.
std::vector<CatalogPageFile> render_catalog_pages(std::vector<CatalogSpec> specs, const KnowledgeBase& kb,
                                                  const HostTables& hosts, const std::string& org,
                                                  size_t limit = kCatalogPageLimit);

}  // namespace tailor
