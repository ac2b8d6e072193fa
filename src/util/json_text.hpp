#pragma once
/// The one way a command prints JSON. JSON carries Unicode text only, but file names and
/// recipe text are bytes: a name that is not UTF-8 (a Latin-1 file name) made nlohmann's
/// dump() throw type_error.316 after the command had written its tree. Such bytes are
/// printed as U+FFFD instead; the text output keeps the bytes.

#include <string>

namespace tailor {

/// \a j (an nlohmann::json or ordered_json) indented by two, ending in a newline.
template <class Json>
std::string json_text(const Json& j) {
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace tailor
