#include "catalog/catalog_pages.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "catalog/catalog_page.hpp"
#include "util/html_quote.hpp"

namespace tailor {

namespace {

CatalogPageFile page_of(std::vector<CatalogSpec> specs, const KnowledgeBase& kb, const HostTables& hosts,
                        const std::string& org, std::string name) {
  CatalogPageFile f;
  f.name = std::move(name);
  for (const auto& s : specs) {
    f.specs.push_back(spec_label(s.spec));
    f.variants += s.matrix.variants.size();
  }
  CatalogData data = build_catalog(std::move(specs), kb, hosts, org);
  f.answers = data.answers.size();
  f.html = render_catalog_page(data, kb);
  return f;
}

// Specs [first, last) as one page.
CatalogPageFile range_page(const std::vector<CatalogSpec>& specs, size_t first, size_t last, const KnowledgeBase& kb,
                           const HostTables& hosts, const std::string& org) {
  std::vector<CatalogSpec> part(specs.begin() + static_cast<long>(first), specs.begin() + static_cast<long>(last));
  return page_of(std::move(part), kb, hosts, org, "");
}

// The index: a plain page of links, one per page, naming the specs each answers for.
std::string index_page(const std::vector<CatalogPageFile>& pages) {
  std::string items;
  for (const auto& p : pages) {
    std::string specs;
    for (size_t i = 0; i < p.specs.size(); ++i)
      specs += (i ? ", " : "") + std::string("<code>") + html_text(p.specs[i]) + "</code>";
    items += fmt::format("<li><a href=\"{}\">{}</a> <span class=\"count\">({} variants)</span></li>\n",
                         html_text(p.name), specs, p.variants);
  }
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta name=\"color-scheme\" content=\"light dark\">\n<meta name=\"generator\" content=\"tailor catalog\">\n"
      "<title>Which build fits your machine?</title>\n"
      "<style>body{{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:0 auto;padding:1rem}}"
      "li{{margin:.4rem 0;overflow-wrap:anywhere}}.count{{opacity:.7}}</style>\n</head>\n<body>\n"
      "<h1>Which build fits your machine?</h1>\n"
      "<p>The builds are described on {} pages; open the one of the package you want.</p>\n<ul>\n{}</ul>\n"
      "</body>\n</html>\n",
      pages.size(), items);
}

}  // namespace

std::vector<CatalogPageFile> render_catalog_pages(std::vector<CatalogSpec> specs, const KnowledgeBase& kb,
                                                  const HostTables& hosts, const std::string& org, size_t limit) {
  if (specs.empty()) return {};
  CatalogPageFile all = range_page(specs, 0, specs.size(), kb, hosts, org);
  if (all.html.size() <= limit || specs.size() == 1) {  // one page, as before
    all.name = "index.html";
    return {std::move(all)};
  }
  // Each spec's page alone, once; a group of consecutive specs is guessed to weigh the sum of
  // their data and one template (shared strings and answers only make it lighter), then rendered
  // and measured, giving back its last spec until it fits.
  const size_t shared = catalog_page_template_size();
  std::vector<size_t> alone;
  for (size_t i = 0; i < specs.size(); ++i) alone.push_back(range_page(specs, i, i + 1, kb, hosts, org).html.size());
  std::vector<CatalogPageFile> joined;
  for (size_t first = 0; first < specs.size();) {
    size_t last = first + 1, guess = alone[first];
    while (last < specs.size() && guess + alone[last] - std::min(shared, alone[last]) <= limit) {
      guess += alone[last] - std::min(shared, alone[last]);
      ++last;
    }
    CatalogPageFile page = range_page(specs, first, last, kb, hosts, org);
    while (page.html.size() > limit && last - first > 1) page = range_page(specs, first, --last, kb, hosts, org);
    joined.push_back(std::move(page));
    first = last;
  }
  for (size_t i = 0; i < joined.size(); ++i) joined[i].name = fmt::format("page-{}.html", i + 1);
  CatalogPageFile index;
  index.name = "index.html";
  index.html = index_page(joined);
  joined.insert(joined.begin(), std::move(index));
  return joined;
}

}  // namespace tailor
