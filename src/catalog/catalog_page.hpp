#pragma once
/// The catalog as one self-contained HTML file: the page's markup, style and
/// script (src/catalog/page/, embedded in the binary) with the precomputed
/// data inlined. No network, no external assets: it works from file://.

#include <string>

#include "catalog/catalog_data.hpp"

namespace tailor {

/// The page for \a data.
std::string render_catalog_page(const CatalogData& data, const KnowledgeBase& kb);

}  // namespace tailor
