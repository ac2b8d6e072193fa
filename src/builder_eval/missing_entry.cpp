#include "builder_eval/missing_entry.hpp"

#include <fstream>
#include <regex>
#include <sstream>

namespace tailor::builder_eval {

namespace fs = std::filesystem;

namespace {

std::string line_of(const fs::path& file, int line) {
  std::ifstream in(file, std::ios::binary);
  std::string l;
  for (int i = 0; i < line && std::getline(in, l); ++i) {}
  return in ? l : std::string();
}

std::string text_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

std::optional<MissingEntry> missing_entry(const NixError& e, const fs::path& root) {
  static const std::regex missing(R"(^attribute '(.*)' missing$)");
  std::smatch m;
  if (e.file.empty() || e.line <= 0 || e.column <= 0 || !std::regex_match(e.message, m, missing)) return std::nullopt;
  std::string attribute = m[1];
  // The name the selection starts from: `tvMetas` of `tvMetas.${metaKey}`, where Nix's column points.
  std::string l = line_of(e.file, e.line);
  if (static_cast<size_t>(e.column) > l.size()) return std::nullopt;
  static const std::regex base(R"(^([A-Za-z_][A-Za-z0-9_'-]*)\.)");
  std::string from = l.substr(static_cast<size_t>(e.column) - 1);
  if (!std::regex_search(from, m, base)) return std::nullopt;
  // Where the builder binds it: `tvMetas = import ./torchvision-metadata.nix;`.
  std::regex binding("(^|[^A-Za-z0-9_'-])" + m[1].str() + R"(\s*=\s*import\s+(\.{1,2}/[^\s;]+))");
  std::string text = text_of(e.file);
  if (!std::regex_search(text, m, binding)) return std::nullopt;
  std::error_code ec;
  fs::path table = fs::weakly_canonical(fs::path(e.file).parent_path() / m[2].str(), ec);
  fs::path top = fs::weakly_canonical(root, ec);
  fs::path rel = table.lexically_relative(top);
  if (ec || rel.empty() || rel.begin()->string() == "..") return std::nullopt;
  return MissingEntry{attribute, rel.generic_string()};
}

}  // namespace tailor::builder_eval
