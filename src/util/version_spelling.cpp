#include "util/version_spelling.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "util/version.hpp"

namespace tailor {

std::string nodot(std::string_view v) {
  std::string out(v);
  out.erase(std::remove(out.begin(), out.end(), '.'), out.end());
  return out;
}

std::string underscored(std::string_view v) {
  std::string out(v);
  std::replace(out.begin(), out.end(), '.', '_');
  return out;
}

std::string major_minor_text(std::string_view v) {
  size_t dot = v.find('.');
  size_t second = dot == std::string_view::npos ? dot : v.find('.', dot + 1);
  return std::string(v.substr(0, second));
}

std::string major_minor(std::string_view version) {
  auto v = Version::parse(version);
  return v ? fmt::format("{}.{}", v->major(), v->minor()) : std::string(version);
}

}  // namespace tailor
