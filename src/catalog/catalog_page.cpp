#include "catalog/catalog_page.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "catalog/catalog_data.hpp"
#include "catalog/packed_data.hpp"
#include "util/embedded.hpp"
#include "util/html_quote.hpp"

namespace tailor {

namespace {

std::string_view page_part(std::string_view name) {
  auto text = embedded_file(fmt::format("src/catalog/page/{}", name));
  if (!text) throw std::logic_error(fmt::format("src/catalog/page/{} is not embedded", name));
  return *text;
}

// Replaces the one {{key}} of \a page with \a value.
void put(std::string& page, std::string_view key, std::string_view value) {
  std::string mark = fmt::format("{{{{{}}}}}", key);
  for (size_t at = page.find(mark); at != std::string::npos; at = page.find(mark, at + value.size()))
    page.replace(at, mark.size(), value);
}

}  // namespace

std::string render_catalog_page(const CatalogData& data, const KnowledgeBase& kb) {
  std::string title = "Which build fits your machine?";
  std::string sources;
  for (size_t i = 0; i < data.specs.size(); ++i) {
    if (i) sources += i + 1 == data.specs.size() ? " and " : ", ";
    sources += "<code>" + html_text(spec_label(data.specs[i].spec)) + "</code>";
  }
  std::string page(page_part("page.html"));
  // Each value goes in once; put() does not search what it inserted.
  put(page, "title", html_text(title));
  put(page, "sources", sources);
  put(page, "style", page_part("page.css"));
  put(page, "script", page_part("page.js"));
  put(page, "data", pack_for_page(catalog_json(data, kb).dump()));
  return page;
}

}  // namespace tailor
