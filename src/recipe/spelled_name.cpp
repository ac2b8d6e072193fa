#include "recipe/spelled_name.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/package.hpp"

namespace tailor::recipe {

namespace {

std::vector<std::string> words_of(std::string_view stem) { return template_segments(stem); }

// The ISA whose flags are exactly the recipe's; null when none is.
const CpuIsa* isa_of_flags(const std::vector<std::string>& flags, const KnowledgeBase& kb) {
  std::set<std::string> have(flags.begin(), flags.end());
  for (const auto& i : kb.isas)
    if (!have.empty() && std::set<std::string>(i.flags.begin(), i.flags.end()) == have) return &i;
  return nullptr;
}

// The fixed words of the backends' name parts ("cpu", "darwin", "mps").
std::vector<std::string> backend_words(const KnowledgeBase& kb) {
  std::vector<std::string> out;
  for (const auto& b : kb.backends)
    for (const auto& seg : template_segments(b.name_part))
      if (seg.find('{') == std::string::npos && std::find(out.begin(), out.end(), seg) == out.end()) out.push_back(seg);
  return out;
}

struct Candidate {
  std::vector<std::string> words;
  std::map<std::string, std::string> spelling;
};

// Word lists that may be the KB's spelling of the name, most literal first.
std::vector<Candidate> candidates(const Candidate& aliased, const CpuIsa* isa, const KnowledgeBase& kb) {
  std::vector<Candidate> out = {aliased};
  const auto& w = aliased.words;
  if (isa && std::find(w.begin(), w.end(), isa->name) == w.end()) {
    Candidate c = aliased;
    c.words.push_back(isa->name);
    c.spelling[isa->name] = "";
    out.push_back(c);
  }
  for (const auto& word : backend_words(kb)) {
    if (std::find(w.begin(), w.end(), word) != w.end() || w.size() < 2) continue;
    Candidate before_last = aliased;
    before_last.words.insert(before_last.words.end() - 1, word);
    before_last.spelling[word] = "";
    out.push_back(before_last);
    if (!isa || std::find(w.begin(), w.end(), isa->name) != w.end()) continue;
    Candidate both = aliased;
    both.words.push_back(word);
    both.words.push_back(isa->name);
    both.spelling[word] = both.spelling[isa->name] = "";
    out.push_back(both);
  }
  return out;
}

}  // namespace

std::optional<SpelledVariant> parse_spelled_name(std::string_view stem, const std::vector<std::string>& cpu_flags,
                                                 const KnowledgeBase& kb) {
  Candidate aliased;
  for (auto& word : words_of(stem)) {
    for (const auto& i : kb.isas)
      if (std::find(i.aliases.begin(), i.aliases.end(), word) != i.aliases.end()) {
        aliased.spelling[i.name] = word;
        word = i.name;
      }
    aliased.words.push_back(word);
  }
  for (const auto& c : candidates(aliased, isa_of_flags(cpu_flags, kb), kb)) {
    std::string problem;
    auto v = parse_variant_name(fmt::format("{}", fmt::join(c.words, "-")), kb, problem);
    if (!v || c.spelling.empty() || variant_name(*v, kb, &c.spelling) != stem) continue;
    v->name = std::string(stem);
    return SpelledVariant{*v, c.spelling};
  }
  return std::nullopt;
}

std::optional<Variant> parse_set_name(std::string_view stem, const std::vector<std::string>& sms,
                                      const KnowledgeBase& kb) {
  if (sms.size() < 2) return std::nullopt;
  for (const auto& sm : sms)
    if (!kb.gpu(sm)) return std::nullopt;
  std::vector<std::string> words = words_of(stem);
  for (auto& word : words) {
    if (word.empty() || !std::all_of(word.begin(), word.end(), [](char c) {
          return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
        }))
      continue;
    std::string set = word;
    word = kb.gpu(sms.front())->name_token();  // read the name as if it named the set's first SM
    std::string problem;
    auto v = parse_variant_name(fmt::format("{}", fmt::join(words, "-")), kb, problem);
    word = set;
    if (!v || v->sm != sms.front()) continue;
    v->sm = set;
    v->sm_set = sms;
    if (variant_name(*v, kb) != stem) continue;
    v->name = std::string(stem);
    return v;
  }
  return std::nullopt;
}

}  // namespace tailor::recipe
