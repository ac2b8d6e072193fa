#pragma once
/// Quoting for the HTML tailor writes (the catalog page), beside quote.hpp's
/// other languages: text and attribute values, and JSON inlined in a <script>.

#include <string>
#include <string_view>

namespace tailor {

/// \a s as HTML text or a double- or single-quoted attribute value: & < > " ' escaped.
std::string html_text(std::string_view s);

/// JSON text made safe inside a <script> element: every '<' as \u003c (the
/// same string to a JSON parser), so no value can close the element or open a comment.
std::string script_json(std::string_view json_text);

}  // namespace tailor
