#pragma once
/// Quoting for the markup tailor writes (the catalog page's HTML, inspect's
/// SVG), beside quote.hpp's other languages: text and attribute values. (The page's data is base64,
/// whose alphabet needs no quoting: catalog/packed_data.hpp.)

#include <string>
#include <string_view>

namespace tailor {

/// \a s as HTML or XML text or a double- or single-quoted attribute value:
/// & < > " ' escaped, control characters (which XML forbids) written as '?'.
std::string html_text(std::string_view s);

}  // namespace tailor
