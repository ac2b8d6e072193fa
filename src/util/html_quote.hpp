#pragma once
/// Quoting for the HTML tailor writes (the catalog page), beside quote.hpp's
/// other languages: text and attribute values. (The page's data is base64,
/// whose alphabet needs no quoting: catalog/packed_data.hpp.)

#include <string>
#include <string_view>

namespace tailor {

/// \a s as HTML text or a double- or single-quoted attribute value: & < > " ' escaped.
std::string html_text(std::string_view s);

}  // namespace tailor
