#pragma once
/// The catalog's data as the page carries it: JSON compressed with zlib
/// (deflate, RFC 1950) and written in base64. Its answers repeat the same
/// phrases thousands of times, so this is 9 to 10 times smaller than the JSON;
/// the page unpacks it with the browser's own DecompressionStream("deflate").
/// Base64's alphabet cannot close a <script> element.

#include <string>
#include <string_view>

namespace tailor {

/// \a text deflated (zlib format, level 9) and base64-encoded, 76 characters a line.
std::string pack_for_page(std::string_view text);

/// The inverse of pack_for_page (for tests). Throws std::runtime_error on bad input.
std::string unpack_from_page(std::string_view packed);

}  // namespace tailor
