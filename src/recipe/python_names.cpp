#include "recipe/python_names.hpp"

namespace tailor::recipe {

namespace {

constexpr std::string_view kPrefix = "python3";

size_t digits_end(std::string_view n) {
  size_t i = kPrefix.size();
  while (i < n.size() && n[i] >= '0' && n[i] <= '9') ++i;
  return i;
}

}  // namespace

bool is_python_set(std::string_view n) {
  if (!n.starts_with(kPrefix)) return false;
  size_t i = digits_end(n);
  return i == n.size() || n.substr(i) == "Packages";
}

std::string_view python_minor(std::string_view n) {
  if (!is_python_set(n)) return {};
  return n.substr(kPrefix.size(), digits_end(n) - kPrefix.size());
}

std::string python_version(std::string_view n) {
  std::string_view minor = python_minor(n);
  return minor.empty() ? "" : "3." + std::string(minor);
}

}  // namespace tailor::recipe
