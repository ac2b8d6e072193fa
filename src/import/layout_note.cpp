#include "import/layout_note.hpp"

#include <algorithm>
#include <filesystem>
#include <regex>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tailor {

namespace {

/// The GPU-architecture lists of one recipe that builds them all: `cudaArches = [ … ]`
/// (ollama's), `CUDA_ARCHITECTURES` / `CUDA_ARCH_LIST` values with several entries.
struct MultiArch {
  std::string rel;
  int line = 0;
  std::string attribute;
  int entries = 0;
};

std::vector<MultiArch> multi_arch_lists(const lint::LintTree& t) {
  // The attribute, then its list (Nix) or its ;-separated string (CMake, Nix-escaped \;).
  static const std::regex list_re(
      R"re(^(cudaArches|CUDA_ARCHITECTURES|CUDA_ARCH_LIST)\b[^\[\n"]{0,12}(\[[^\]]*\]|"[^"\n]*"))re");
  std::vector<MultiArch> out;
  for (const auto& f : t.nix) {
    const std::string& text = f.text();
    bool found = false;
    for (const char* key : {"cudaArches", "CUDA_ARCHITECTURES", "CUDA_ARCH_LIST"})
      for (size_t at = text.find(key); !found && at != std::string::npos; at = text.find(key, at + 1)) {
        // A bounded window: std::regex recurses per character.
        std::string window = text.substr(at, 2000);
        std::smatch m;
        if (!std::regex_search(window, m, list_re)) continue;
        std::string value = m.str(2);
        int n = value.front() == '['
                    ? static_cast<int>(std::count(value.begin(), value.end(), '"') / 2)
                    : (value.size() > 2 ? 1 + static_cast<int>(std::count(value.begin(), value.end(), ';')) : 0);
        if (n < 2) continue;
        int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
        out.push_back({f.src.rel, line, m.str(1), n});
        found = true;  // one per file
      }
  }
  return out;
}

/// The files of \a t that import or callPackage the file \a rel (resolved from each file's folder).
std::vector<std::string> importers(const lint::LintTree& t, const std::string& rel) {
  std::vector<std::string> out;
  for (const auto& f : t.nix)
    for (const auto& i : f.facts.imports) {
      auto dir = std::filesystem::path(f.src.rel).parent_path();
      if ((dir / i.text).lexically_normal().generic_string() == rel) {
        out.push_back(f.src.rel);
        break;
      }
    }
  return out;
}

/// "flake.nix", "a.nix and b.nix", "a.nix and 2 more".
std::string some_of(const std::vector<std::string>& files) {
  if (files.size() <= 2) return fmt::format("{}", fmt::join(files, " and "));
  return fmt::format("{} and {} more", files.front(), files.size() - 1);
}

/// kernel-builder's tables: versions.nix (torch × backend) and an archs.nix that gives the
/// capabilities per torch and CUDA version, each with the files that read it; empty if no versions.nix.
std::string table_layout(const lint::LintTree& t) {
  if (!t.files.count("versions.nix")) return "";
  std::string archs;
  for (const auto& rel : t.files)
    if (rel == "archs.nix" || rel.ends_with("/archs.nix")) {
      archs = rel;
      break;
    }
  const std::vector<std::string> versions_by = importers(t, "versions.nix");
  if (archs.empty())
    return fmt::format(" (versions.nix{} lists torch × backend × capabilities, a function expands them)",
                       versions_by.empty() ? "" : ", read by " + some_of(versions_by) + ",");
  const std::vector<std::string> archs_by = importers(t, archs);
  return fmt::format(
      " (versions.nix{} lists torch × backend; {}{} gives the capabilities per torch and CUDA version; functions "
      "expand their product)",
      versions_by.empty() ? "" : ", read by " + some_of(versions_by) + ",", archs,
      archs_by.empty() ? "" : ", read by " + some_of(archs_by) + ",");
}

}  // namespace

std::vector<std::string> layout_notes(const lint::LintTree& t) {
  std::vector<std::string> out;
  int packages = 0;
  std::string example;
  for (const auto& f : t.nix)
    if (f.package || (f.helper && f.stem == "default" && f.src.rel.find('/') != std::string::npos)) {
      ++packages;
      if (example.empty() || (f.stem == "generic" && !example.ends_with("/generic.nix"))) example = f.src.rel;
    }
  const bool listed = t.files.count("build-variants.json") > 0;
  if (packages >= 2)
    out.push_back(fmt::format(
        "layout: a nixpkgs-style package set ({} package files such as {}, called through callPackage{}): its "
        "variants are values of Nix expressions{}, not files named for them; tailor import reads one recipe file "
        "per variant (PACKAGE-pythonXYZ-cudaX_Y-smNN-ISA.nix) and does not evaluate the functions that expand "
        "them{}",
        packages, example, t.files.count("overlay.nix") ? " and overlay.nix" : "", table_layout(t),
        listed ? "; build-variants.json holds the names they expand to" : ""));
  for (const auto& m : multi_arch_lists(t))
    out.push_back(fmt::format(
        "{}:{}: one recipe builds {} GPU architectures from its {} list: a tailor variant is one SM (or one "
        "named set); import would need a variant per entry, or the list as a named SM set",
        m.rel, m.line, m.entries, m.attribute));
  return out;
}

}  // namespace tailor
