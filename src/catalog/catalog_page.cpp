#include "catalog/catalog_page.hpp"

#include <map>
#include <stdexcept>
#include <string_view>

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

// The template with each {{key}} replaced by its value, in one pass over the template alone:
// a value is never searched for marks, so a spec file named {{script}} stays its name.
std::string fill(std::string_view page, const std::map<std::string_view, std::string_view>& values) {
  std::string out;
  size_t at = 0;
  for (size_t open = page.find("{{"); open != std::string_view::npos; open = page.find("{{", at)) {
    size_t close = page.find("}}", open + 2);
    if (close == std::string_view::npos) break;
    auto it = values.find(page.substr(open + 2, close - open - 2));
    out += page.substr(at, (it == values.end() ? close + 2 : open) - at);
    if (it != values.end()) out += it->second;
    at = close + 2;
  }
  out += page.substr(at);
  return out;
}

}  // namespace

size_t catalog_page_template_size() {
  return page_part("page.html").size() + page_part("page.css").size() + page_part("page.js").size();
}

std::string render_catalog_page(const CatalogData& data, const KnowledgeBase& kb) {
  std::string title = "Which build fits your machine?";
  std::string sources;
  for (size_t i = 0; i < data.specs.size(); ++i) {
    if (i) sources += i + 1 == data.specs.size() ? " and " : ", ";
    sources += "<code>" + html_text(spec_label(data.specs[i].spec)) + "</code>";
  }
  const std::string data_text =
      pack_for_page(catalog_json(data, kb).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  const std::string title_text = html_text(title);
  std::string page = fill(page_part("page.html"), {{"title", title_text},
                                                   {"sources", sources},
                                                   {"style", page_part("page.css")},
                                                   {"script", page_part("page.js")},
                                                   {"data", data_text}});
  return page;
}

}  // namespace tailor
