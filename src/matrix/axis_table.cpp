#include "matrix/axis_table.hpp"

#include <map>

#include <fmt/format.h>

#include "matrix/template_fill.hpp"
#include "util/diagnostic.hpp"

namespace tailor {

namespace {

[[noreturn]] void fail(std::string_view path, const std::string& message) {
  Diagnostic d;
  d.message = fmt::format("[layout.tables] {}: {}", path, message);
  d.hint =
      "{#sm} … {/sm} is written per SM of the matrix, {#cuda} … {/cuda} per CUDA version; "
      "{#sm 9.0} … {/sm} is that SM's own text";
  throw DiagnosticError(d);
}

// \a text with its words "{word@AXIS}" and "{word@AXIS platform}" keyed by \a key.
std::string keyed(std::string_view text, std::string_view axis, const std::string& key) {
  std::string out(text);
  for (const std::string tail : {"}", " "}) {
    std::string from = "@" + std::string(axis) + tail, to = "@" + key + tail;
    for (size_t p = out.find(from); p != std::string::npos; p = out.find(from, p + to.size()))
      out.replace(p, from.size(), to);
  }
  return out;
}

}  // namespace

std::string render_axis_blocks(std::string_view path, std::string_view tmpl, std::string_view axis,
                               const std::vector<std::string>& keys) {
  const std::string open_tag = "{#" + std::string(axis);
  const std::string close_tag = "{/" + std::string(axis) + "}";
  if (tmpl.find(open_tag) == std::string_view::npos) return std::string(tmpl);
  std::string out;
  std::map<std::string, std::string> own;
  std::string common;
  size_t common_at = std::string::npos;
  size_t i = 0;
  while (true) {
    size_t at = tmpl.find(open_tag, i);
    if (at == std::string_view::npos) break;
    size_t brace = tmpl.find('}', at);
    std::string key(
        tmpl.substr(at + open_tag.size(), brace == std::string_view::npos ? 0 : brace - at - open_tag.size()));
    if (brace == std::string_view::npos || (!key.empty() && key.front() != ' ')) {  // "{#smart}": text
      out += tmpl.substr(i, at + 1 - i);
      i = at + 1;
      continue;
    }
    auto [open, start] = find_marker(tmpl, tmpl.substr(at, brace + 1 - at), at);
    auto [close, end] = find_marker(tmpl, close_tag, start);
    if (close == std::string_view::npos) fail(path, fmt::format("{}}} is not closed by {}", open_tag, close_tag));
    out += tmpl.substr(i, open - i);
    std::string_view inner = tmpl.substr(start, close - start);
    if (key.empty()) {
      if (common_at != std::string::npos) fail(path, fmt::format("two {}}} blocks", open_tag));
      common_at = out.size();
      common = std::string(inner);
    } else {
      own[key.substr(1)] = std::string(inner);
    }
    i = end;
  }
  out += tmpl.substr(i);
  if (common_at == std::string::npos && own.empty()) return out;  // only text that begins like a block
  if (common_at == std::string::npos)
    fail(path, fmt::format("an own {} X}} block without the common {}}}", open_tag, open_tag));
  std::string entries;
  for (const auto& k : keys) {
    auto it = own.find(k);
    entries += keyed(it != own.end() ? it->second : common, axis, k);
  }
  return out.insert(common_at, entries);
}

}  // namespace tailor
