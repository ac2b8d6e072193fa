#include "matrix/external_recipe.hpp"

#include <algorithm>
#include <cctype>
#include <regex>

#include <fmt/format.h>

#include "kb/package.hpp"
#include "matrix/template_words.hpp"
#include "matrix/variant.hpp"

namespace tailor {

namespace {

// The words of \a v: word -> value, the word table's recipe scope; a word the variant lacks (no CUDA, no SM) is
// absent. A paired package's version also as trees spell it in a recipe's file name ({torch_short}: pytorch210-…).
std::vector<std::pair<std::string, std::string>> words_of(const Variant& v) {
  auto some = [](const std::string& s) { return s.empty() ? std::nullopt : std::optional<std::string>(s); };
  auto facts = [&](const TemplateWord& w) -> std::optional<std::string> {
    switch (w.fact) {
      case WordFact::backend: return v.backend;
      case WordFact::version: return some(v.version);
      case WordFact::python: return some(v.python);
      case WordFact::cuda: return some(v.cuda);
      // A set variant has no one SM: the loader refuses {sm} words where a family has sets.
      case WordFact::sm: return v.sm_set.empty() ? some(v.sm) : std::nullopt;
      case WordFact::isa: return some(v.isa);
      default: return std::nullopt;
    }
  };
  return scope_values(WordScope::recipe, facts, v.paired);
}

// Whether \a word is the variant's backend ("cpu"), which a constant may also happen to be.
bool is_backend(const std::string& word) {
  const TemplateWord* w = find_word(WordScope::recipe, word, {});
  return w && w->fact == WordFact::backend;
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
    if (w == value && !is_backend(word)) return "{" + word + "}";
  if (value == v.backend) return "{backend}";
  return value;
}

std::string external_path_template(const std::string& path, const Variant& v) {
  std::vector<std::pair<std::string, std::string>> words = words_of(v);
  std::erase_if(words, [](const auto& w) { return is_backend(w.first); });  // "cpu" in a name is the tree's own word
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
