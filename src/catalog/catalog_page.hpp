#pragma once
/// The catalog as one self-contained HTML file: the page's markup, style and
/// script (src/catalog/page/, embedded in the binary) with the precomputed
/// data inlined. No network, no external assets: it works from file://.

#include <string>

#include "catalog/catalog_data.hpp"

namespace tailor {

/// The page for \a data.
std::string render_catalog_page(const CatalogData& data, const KnowledgeBase& kb);

/// The bytes every page carries whatever its data: its markup, style and script.
size_t catalog_page_template_size();

}  // namespace tailor
