#include "matrix/external_recipe.hpp"

#include <algorithm>
#include <cctype>
#include <regex>

#include <fmt/format.h>

#include "kb/package.hpp"
#include "matrix/variant.hpp"
#include "util/version.hpp"

namespace tailor {

namespace {

std::string without(std::string s, char c, std::string_view by) {
  std::string out;
  for (char x : s) out += x == c ? std::string(by) : std::string(1, x);
  return out;
}

// The words of \a v: word -> value; a word the variant lacks (no CUDA, no SM) is absent.
std::vector<std::pair<std::string, std::string>> words_of(const Variant& v) {
  std::vector<std::pair<std::string, std::string>> out = {{"backend", v.backend}};
  if (!v.version.empty()) out.emplace_back("version", v.version);
  if (!v.python.empty()) out.insert(out.end(), {{"python", v.python}, {"python_nodot", without(v.python, '.', "")}});
  if (!v.cuda.empty()) out.insert(out.end(), {{"cuda", v.cuda}, {"cuda_underscore", without(v.cuda, '.', "_")}});
  // A set variant has no one SM: the loader refuses {sm} words where a family has sets.
  if (!v.sm.empty() && v.sm_set.empty()) out.insert(out.end(), {{"sm", v.sm}, {"sm_nodot", without(v.sm, '.', "")}});
  if (!v.isa.empty()) out.emplace_back("isa", v.isa);
  for (const auto& [attribute, version] : v.paired) {
    out.emplace_back(attribute, version);
    // "2.10.0" -> "210": the version as trees spell it in a recipe's file name (pytorch210-…).
    if (auto p = Version::parse(version))
      out.emplace_back(attribute + "_short", fmt::format("{}{}", p->major(), p->minor()));
  }
  return out;
}

}  // namespace

std::string ExternalRecipe::table() const {
  return fmt::format("[family.{}external.{}]", family_level ? "" : "version.", attribute);
}

const ExternalRecipe* find_external(const std::vector<ExternalRecipe>& recipes, std::string_view attribute) {
  for (const auto& r : recipes)
    if (r.attribute == attribute) return &r;
  return nullptr;
}

std::string ExternalRecipe::tarball_url() const {
  std::string base = repo.starts_with("https://") ? repo : "https://github.com/" + repo;
  return fmt::format("{}/archive/{}.tar.gz", base, rev);
}

std::optional<std::string> ExternalRecipe::path_for(const Variant& v) const {
  std::vector<std::pair<std::string, std::string>> words = words_of(v);
  for (const auto& k : template_keys(path))
    if (std::none_of(words.begin(), words.end(), [&](const auto& w) { return w.first == k.word; })) return std::nullopt;
  return fill_template(path, words);
}

std::string ExternalRecipe::describe(const Variant* v) const {
  return fmt::format("{} of {} at {}", v ? path_for(*v).value_or(path) : path, repo, rev);
}

const std::vector<std::string>& external_recipe_words() {
  static const std::vector<std::string> words = {"pkgs", "backend",         "version", "python",   "python_nodot",
                                                 "cuda", "cuda_underscore", "sm",      "sm_nodot", "isa"};
  return words;
}

std::vector<ExternalArg> external_args(const ExternalRecipe& r, const Variant& v) {
  std::vector<std::pair<std::string, std::string>> words = words_of(v);
  std::vector<ExternalArg> out;
  for (const auto& [name, tmpl] : r.args) {
    ExternalArg a{name, tmpl == "{pkgs}", std::nullopt};
    if (!a.pkgs) {
      // A word the variant lacks makes the argument null, as trees pass `sm = null` to a CPU build.
      auto keys = template_keys(tmpl);
      bool lacks = std::any_of(keys.begin(), keys.end(), [&](const TemplateKey& k) {
        return std::none_of(words.begin(), words.end(), [&](const auto& w) { return w.first == k.word; });
      });
      if (!lacks) a.value = fill_template(tmpl, words);
    }
    out.push_back(std::move(a));
  }
  return out;
}

std::string external_arg_template(const std::string& value, const Variant& v) {
  // The most specific word first: "313" is {python_nodot}, never a constant that happens to match.
  for (const auto& [word, w] : words_of(v))
    if (w == value && word != "backend") return "{" + word + "}";
  if (value == v.backend) return "{backend}";
  return value;
}

std::string external_path_template(const std::string& path, const Variant& v) {
  std::vector<std::pair<std::string, std::string>> words = words_of(v);
  std::erase_if(words, [](const auto& w) { return w.first == "backend"; });  // "cpu" in a name is the tree's own word
  // The longest value first: "12_8" before "12", so a word is never read out of a longer one.
  std::stable_sort(words.begin(), words.end(),
                   [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
  auto token = [&](const std::string& t) {
    for (const auto& [word, value] : words) {
      if (value.empty() || !t.ends_with(value)) continue;
      std::string prefix = t.substr(0, t.size() - value.size());
      if (std::all_of(prefix.begin(), prefix.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }))
        return prefix + "{" + word + "}";
    }
    return t;
  };
  // Words live between '/', '-' and the file's ".nix".
  std::string out, cur;
  std::string p = path.ends_with(".nix") ? path.substr(0, path.size() - 4) : path;
  for (char c : p) {
    if (c == '/' || c == '-') {
      out += token(cur) + c;
      cur.clear();
    } else {
      cur += c;
    }
  }
  out += token(cur);
  return path.ends_with(".nix") ? out + ".nix" : out;
}

std::optional<std::string> repo_of_tarball(const std::string& url, std::string& rev) {
  static const std::regex github(
      R"(^https://github\.com/([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)/archive/([A-Za-z0-9._-]+)\.tar\.gz$)");
  static const std::regex other(R"(^(https://[A-Za-z0-9.-]+(/[A-Za-z0-9_.~-]+)+)/archive/([A-Za-z0-9._-]+)\.tar\.gz$)");
  std::smatch m;
  if (std::regex_match(url, m, github)) {
    rev = m[2];
    return m[1].str();
  }
  if (std::regex_match(url, m, other)) {
    rev = m[3];
    return m[1].str();
  }
  return std::nullopt;
}

}  // namespace tailor
