#include "kb/package_scaffold.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "util/diagnostic.hpp"
#include "util/edit_distance.hpp"
#include "util/quote.hpp"
#include "util/safe_name.hpp"

namespace tailor {

std::string builder_text(const KnowledgeBase& kb, const std::string& file) {
  if (auto it = kb.builder_files.find(file); it != kb.builder_files.end()) return it->second;
  return {};
}

namespace {

[[noreturn]] void fail(std::string message, std::string hint = {}) {
  Diagnostic d;
  d.path = "tailor kb new-package";
  d.message = std::move(message);
  d.hint = std::move(hint);
  throw DiagnosticError(d);
}

std::string list(const std::vector<std::string>& v) {
  std::vector<std::string> quoted;
  for (const auto& s : v) quoted.push_back(toml_string(s));
  return "[" + fmt::format("{}", fmt::join(quoted, ", ")) + "]";
}

std::string bool_text(bool b) { return b ? "true" : "false"; }

bool identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '\'' || c == '-';
}

// Replaces each selection `.WHAT` (WHAT not continued by an identifier
// character) by `.${variant.attribute}`; returns how many it replaced.
size_t select_attribute(std::string& text, const std::string& what) {
  size_t n = 0;
  std::string needle = "." + what, by = ".${variant.attribute}";
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at)) {
    size_t end = at + needle.size();
    if (end < text.size() && identifier_char(text[end])) {
      at = end;
      continue;
    }
    text.replace(at, needle.size(), by);
    at += by.size();
    ++n;
  }
  return n;
}

std::string argument_tables(const PackageDef& p) {
  std::string out;
  for (const auto& a : p.arguments) {
    if (&a == &p.arguments.front())
      out +=
          "\n# An argument of the nixpkgs expression's .override for variants of one backend. value is a Nix\n"
          "# template: {sm}, {sm_list}, {capability}, {min_capability}, {gpu}, {gpu_family}, {gpu_products}.\n"
          "# because is what `tailor explain` prints (because_set: for a variant of an SM set).";
    out += "\n[[package.argument]]\n";
    out += fmt::format("backend = {}\nname = {}\nvalue = {}\nbecause = {}\n", toml_string(a.backend),
                       toml_string(a.name), toml_string(a.value), toml_string(a.because));
    if (!a.because_set.empty()) out += fmt::format("because_set = {}\n", toml_string(a.because_set));
  }
  for (const auto& f : p.cmake_flags) {
    if (&f == &p.cmake_flags.front())
      out +=
          "\n# A CMake flag of variants of one backend (the variant record's cmakeFlags, or the list\n"
          "# recipe_key names, explained under label).";
    out += "\n[[package.cmake_flag]]\n";
    out += fmt::format("backend = {}\nflag = {}\n", toml_string(f.backend), toml_string(f.name));
    if (!f.recipe_key.empty())
      out += fmt::format("recipe_key = {}\nlabel = {}\n", toml_string(f.recipe_key), toml_string(f.label));
    out += fmt::format("because = {}\n", toml_string(f.because));
    if (!f.because_set.empty()) out += fmt::format("because_set = {}\n", toml_string(f.because_set));
  }
  for (const auto& n : p.needs) {
    if (&n == &p.needs.front())
      out +=
          "\n# A package of the matrix it builds against. strategy: \"companion-of\" (imports the same\n"
          "# cell's variant of it), \"python-set-substitution\" (builds it inline and swaps it into the\n"
          "# whole Python set), \"links-if-built\" (passes the cell's variant when the matrix has one).\n"
          "# argument receives it; recipe_key is the variant record's key for it.";
    out += "\n[[package.needs]]\n";
    out += fmt::format("package = {}\nstrategy = {}\nargument = {}\nrecipe_key = {}\nbecause = {}\n",
                       toml_string(n.package), toml_string(name_of(n.strategy)), toml_string(n.argument),
                       toml_string(n.recipe_key), toml_string(n.because));
  }
  return out;
}

}  // namespace

PackageScaffold scaffold_package(const KnowledgeBase& kb, const std::string& name, const std::string& like) {
  if (unsafe_name_reason(name))
    fail(fmt::format("package name '{}' is not letters, digits and . _ + - starting with a letter or digit", name));
  if (kb.package(name))
    fail(fmt::format("the knowledge base already has a package '{}'", name),
         "an overlay's entry of the same name is read over it field by field: write only the fields to change");
  // Its builder is builders/NAME.nix, read over lib/NAME.nix: a name the knowledge base's builders
  // already take (torch, common, nixpkgs, …) would replace the shared builder in every tree using
  // the overlay. Compared without case: a file system without case makes Torch.nix torch.nix.
  for (const auto& [file, text] : kb.builder_files) {
    std::string taken = file.substr(file.rfind('/') + 1);
    if (taken.ends_with(".nix")) taken.resize(taken.size() - 4);
    auto lower = [](std::string x) {
      for (char& c : x) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return x;
    };
    if (lower(taken) == lower(name))
      fail(fmt::format("package name '{}' is taken by the builder {}: the overlay's builders/{}.nix would replace it "
                       "in every tree that uses the overlay",
                       name, file, name),
           "choose another name (e.g. '" + name + "-custom')");
  }
  const PackageDef* from = kb.package(like);
  if (!from) {
    std::string hint = did_you_mean(like, kb.package_names());
    fail(fmt::format("--like: no package '{}' in the knowledge base", like),
         hint.empty() ? fmt::format("packages: {}", fmt::join(kb.package_names(), ", ")) : hint);
  }
  PackageScaffold out;
  const std::string builder = "lib/" + name + ".nix";

  // The builder: the one of --like, made to build the attribute its variant names.
  std::string text = builder_text(kb, from->builder);
  auto it = kb.builds.find(from->builder);
  std::string builds = it == kb.builds.end() ? from->attribute : it->second;
  size_t replaced = 0;
  if (builds == "{package}")
    replaced = select_attribute(text, "${v.package}");
  else if (builds != "{attribute}")
    replaced = select_attribute(text, builds);
  if (replaced == 0 && builds != "{attribute}")
    out.notes.push_back(
        fmt::format("builders/{}.nix: no selection of '{}' found in the builder of '{}': make it build "
                    "variant.attribute",
                    name, builds, like));
  out.files["builders/" + name + ".nix"] =
      fmt::format(
          "# The {} builder, started from the builder of {} ({}) by `tailor kb new-package`:\n"
          "# edit it. It is called as `import ./{}.nix {{ nixpkgsSrc; variant; }}` and builds\n"
          "# variant.attribute (tailor's doc/knowledge-base.md lists every key of `variant`).\n",
          name, like, from->builder, name) +
      text;

  // The entry: every field of --like, each with what it does.
  std::string t;
  t += fmt::format(
      "# A knowledge-base overlay that adds the package '{}', started from '{}' by\n"
      "# `tailor kb new-package`. Use it with `--kb DIR` on any command; `tailor kb --kb DIR`\n"
      "# shows what it loads. Every field of the entry is written out: edit them.\n\n",
      name, like);
  t += "# The attribute each builder builds: \"{attribute}\" reads it from the variant record\n"
       "# (variant.attribute), so the recipes build this package's own attribute.\n";
  t += fmt::format("[builds]\n{} = \"{{attribute}}\"\n\n", toml_string(builder));
  t += "[[package]]\n";
  t += fmt::format("# Its name in variant names and specs (`package = ...` of a [[family]]).\nname = {}\n",
                   toml_string(name));
  t += fmt::format("# Its name in headers, descriptions and READMEs.\ndisplay = {}\n", toml_string(name));
  t += fmt::format(
      "# Its nixpkgs attribute (python3XXPackages.<attribute> or pkgs.<attribute>): what the\n"
      "# builder builds. Change it where nixpkgs names the package otherwise.\nattribute = {}\n",
      toml_string(name));
  t += fmt::format("# \"python\" (crosses the python axis) or \"top-level\".\nscope = {}\n",
                   toml_string(name_of(from->scope)));
  t += fmt::format("# The backends it is built for ([[backend]] of packages.toml: cuda, cpu, mps).\nbackends = {}\n",
                   list(from->backends));
  t += fmt::format(
      "# Its builder in the generated tree: builders/{}.nix beside this file is lib/{}.nix.\nbuilder = {}\n", name,
      name, toml_string(builder));
  t += fmt::format(
      "# The other builder files it imports (shared ones such as lib/common.nix, or files of\n"
      "# builders/ here), written with it into every tree that builds the package.\nbuilder_files = {}\n",
      list(from->builder_files));
  t += fmt::format(
      "# Variant names: {{package}}, {{python}} (python scope) and {{backend}} (the backend's name_part).\n"
      "variant_name = {}\n",
      toml_string(from->variant_name));
  t += fmt::format(
      "# How the GPU target reaches its build: \"override-argument\" (an argument naming {{sm}}),\n"
      "# \"cmake-flag\" (a cmake_flag naming {{capability}}), \"config-capabilities\" or \"substituted\"\n"
      "# (the package it swaps into its Python set carries it).\ngpu_target = {}\n",
      toml_string(name_of(from->gpu_target)));
  t += fmt::format(
      "# Whether nixpkgs_pins.toml records its version per pin (a pin that records none does not\n"
      "# ship it); false: the spec states the version ([[family.version]]).\nversion_in_pins = {}\n",
      bool_text(from->version_in_pins));
  t += fmt::format("# Big-parallel builders, toolchain stripped from the closure.\nbig_build = {}\n",
                   bool_text(from->big_build));
  t += fmt::format("# Honours the per-ISA USE_* switches and cuDNN's SM limits.\nfeature_switches = {}\n",
                   bool_text(from->feature_switches));
  if (!from->description.empty()) {
    t += "# Per-backend description templates (else the backend's).\n";
    std::vector<std::string> items;
    for (const auto& [b, d] : from->description) items.push_back(fmt::format("{} = {}", toml_key(b), toml_string(d)));
    t += fmt::format("description = {{ {} }}\n", fmt::join(items, ", "));
  }
  if (!from->header.empty()) {
    t += "# Per-backend header comments of its recipes: three lines (else the backend's).\n";
    std::vector<std::string> items;
    for (const auto& [b, lines] : from->header) items.push_back(fmt::format("{} = {}", toml_key(b), list(lines)));
    t += fmt::format("header = {{ {} }}\n", fmt::join(items, ", "));
  }
  t += argument_tables(*from);
  out.files["packages.toml"] = t;
  return out;
}

}  // namespace tailor
