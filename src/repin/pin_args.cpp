#include "repin/pin_args.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "recipe/python_names.hpp"
#include "util/diagnostic.hpp"
#include "util/file_error.hpp"

namespace tailor::repin {

namespace {

bool all_of(std::string_view s, std::string_view alphabet) {
  return std::all_of(s.begin(), s.end(), [&](char c) { return alphabet.find(c) != std::string_view::npos; });
}

constexpr std::string_view kHex = "0123456789abcdef";
// Nix's base-32 alphabet: digits and lowercase letters without e, o, u, t.
constexpr std::string_view kNix32 = "0123456789abcdfghijklmnpqrsvwxyz";
constexpr std::string_view kBase64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

}  // namespace

const NixpkgsPin* find_pin(const KnowledgeBase& kb, std::string_view rev) {
  if (rev.size() < 7) return nullptr;
  for (const auto& p : kb.pins)
    if (p.rev.starts_with(rev)) return &p;
  return nullptr;
}

TargetPin parse_rev(const std::string& rev, const KnowledgeBase& kb) {
  if (rev.size() == 40 && all_of(rev, kHex)) return {rev, find_pin(kb, rev)};
  if (rev.size() >= 7 && rev.size() < 40 && all_of(rev, kHex))
    if (const NixpkgsPin* p = find_pin(kb, rev)) return {p->rev, p};
  bool short_form = rev.size() >= 7 && rev.size() < 40 && all_of(rev, kHex);
  std::string why = short_form ? "a short revision must name a pin of the knowledge base"
                               : "a nixpkgs revision is 40 lowercase hex digits";
  throw_file_error(
      "", fmt::format("repin: --rev '{}' is not a nixpkgs revision: {}", rev, why),
      fmt::format("give the full commit hash, or one of the known pins: {}", fmt::join(kb.pin_names(), ", ")));
}

std::optional<HashFormat> hash_format(std::string_view h) {
  if (h.size() == 52 && all_of(h, kNix32)) return HashFormat::nix32;
  if (h.size() == 64 && all_of(h, kHex)) return HashFormat::base16;
  if (h.starts_with("sha256-") && h.size() == 7 + 44 && h.back() == '=' && all_of(h.substr(7, 43), kBase64))
    return HashFormat::sri;
  return std::nullopt;
}

std::string parse_sha256(const std::string& hash) {
  if (hash_format(hash)) return hash;
  throw_file_error("", fmt::format("repin: --sha256 '{}' is not a sha256 hash", hash),
                   "expected 52 nix-base32 characters, 64 hex digits or sha256-<44 base64 characters> "
                   "(nix-prefetch-url --unpack URL prints the first)");
}

std::string fake_hash(HashFormat format) {
  switch (format) {
    case HashFormat::nix32: return std::string(52, '0');
    case HashFormat::base16: return std::string(64, '0');
    case HashFormat::sri: return "sha256-" + std::string(43, 'A') + "=";
  }
  return {};
}

std::optional<PythonSet> python_name(std::string_view name) {
  if (!recipe::is_python_set(name)) return std::nullopt;
  std::string minor(recipe::python_minor(name));
  if (minor.size() > 2) return std::nullopt;  // python3 and a two-digit minor at most
  PythonSet s;
  s.interpreter = "python3" + minor;
  s.set = s.interpreter + "Packages";
  if (!minor.empty()) s.version = "3." + minor;
  return s;
}

std::vector<std::pair<size_t, size_t>> revision_runs(std::string_view text) {
  auto hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); };
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::vector<std::pair<size_t, size_t>> out;
  for (size_t i = 0; i < text.size();) {
    if (!hex(text[i]) || (i > 0 && word(text[i - 1]))) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < text.size() && hex(text[j])) ++j;
    if ((j == text.size() || !word(text[j])) && j - i >= 7 && j - i <= 40) out.emplace_back(i, j);
    i = j;
  }
  return out;
}

PythonSet parse_python_set(const std::string& name) {
  auto s = python_name(name);
  if (s && s->set == name) return *s;
  throw_file_error(
      "", fmt::format("repin: --python-set '{}' is not a Python package set", name),
      "name the nixpkgs attribute, e.g. python313Packages (or python3Packages for the pin's default Python)");
}

}  // namespace tailor::repin
