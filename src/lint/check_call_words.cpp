// TLR045 builder-call-name: a wrapper's builder call contradicts its name.
// `torchvision025-python313-cuda12_8-sm89-avx2.nix` calling its builder with
// `isa = "avx512"` builds AVX-512 code for CPUs the name promises AVX2 to
// (SIGILL). Which argument states which name word (SM, CPU target, CUDA,
// Python, version, backend) is learned from the tree itself: an argument
// states a word where most of the wrappers calling that builder pass exactly
// it, so a team's own argument names need no table.
#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "lint/checks.hpp"
#include "lint/rename_edit.hpp"
#include "util/version_spelling.hpp"

namespace tailor::lint {

namespace {

enum Word { kSm, kIsa, kCuda, kPython, kVersion, kBackend, kWords };
constexpr std::array<const char*, kWords> kWordName = {"SM",      "CPU target", "CUDA version", "Python version",
                                                       "version", "backend"};

std::string without(std::string s, std::string_view chars) {
  std::erase_if(s, [&](char c) { return chars.find(c) != std::string_view::npos; });
  return s;
}

// The spellings of each word of \a f's name a call may pass ("8.9": "89", "sm_89", …), first the plain one.
std::array<std::vector<std::string>, kWords> spellings(const NixFile& f) {
  std::array<std::vector<std::string>, kWords> out;
  const Variant& v = *f.variant;
  if (!v.sm.empty() && v.sm_set.empty()) {
    std::string d = nodot(v.sm);
    out[kSm] = {d, v.sm, "sm_" + d, "sm" + d, "compute_" + d};
  }
  if (!v.isa.empty()) out[kIsa] = {v.isa};
  if (!v.cuda.empty()) {
    std::string u = underscored(v.cuda), d = nodot(v.cuda);
    out[kCuda] = {u, v.cuda, d, "cu" + d, "cuda" + u, "cuda" + d};
  }
  if (!v.python.empty()) {
    std::string d = nodot(v.python);
    out[kPython] = {d, v.python, "python" + d, "py" + d, "cp" + d, "python" + v.python};
  }
  // The version word of the package word: "torchvision025" -> "025", passed as "0.25".
  if (!v.package_word.empty() && v.package_word.starts_with(v.package)) {
    std::string digits = v.package_word.substr(v.package.size());
    if (auto dash = digits.find('-'); dash != std::string::npos) digits.resize(dash);
    if (!digits.empty() && std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
      out[kVersion] = {digits};
  }
  if (!v.backend.empty()) out[kBackend] = {v.backend};
  return out;
}

// Index of \a value among \a spelled (the version compares without its dots); -1: none.
int spelled_as(const std::string& value, const std::vector<std::string>& spelled, int word) {
  if (word == kVersion) return !spelled.empty() && without(value, "._") == spelled[0] ? 0 : -1;
  auto it = std::find(spelled.begin(), spelled.end(), value);
  return it == spelled.end() ? -1 : static_cast<int>(it - spelled.begin());
}

struct Site {
  const NixFile* file;
  const Fact* arg;
  std::array<std::vector<std::string>, kWords> words;
};

// What the tree says of one (builder, argument): per word, how many calls pass
// it and in which spelling.
struct Tally {
  std::vector<Site> sites;
  std::array<int, kWords> agree{}, have{};
  std::array<std::map<int, int>, kWords> spelling{};
};

}  // namespace

void check_call_words(const LintTree& t, const KnowledgeBase& /*kb*/, Sink& sink) {
  std::map<std::pair<std::string, std::string>, Tally> tallies;  // (builder, argument)
  for (const auto& f : t.nix) {
    if (!f.parsed || f.helper || !f.variant) continue;
    for (const auto& call : f.facts.calls) {
      const NixFile* builder = imported_file(t, f, call.path);
      if (!builder || !builder->helper) continue;
      auto words = spellings(f);
      for (const auto& arg : call.args) {
        Tally& tally = tallies[{builder->src.rel, arg.key}];
        tally.sites.push_back({&f, &arg, words});
        for (int w = 0; w < kWords; ++w) {
          if (words[w].empty()) continue;
          ++tally.have[w];
          int s = spelled_as(arg.text, words[w], w);
          if (s < 0) continue;
          ++tally.agree[w];
          ++tally.spelling[w][s];
        }
      }
    }
  }
  for (const auto& [key, tally] : tallies) {
    // The word the argument states: the one most calls pass, by at least two
    // calls and more than half of those whose name has that word.
    int word = -1;
    for (int w = 0; w < kWords; ++w)
      if (tally.agree[w] >= 2 && 2 * tally.agree[w] > tally.have[w] && (word < 0 || tally.agree[w] > tally.agree[word]))
        word = w;
    if (word < 0 || tally.agree[word] == tally.have[word]) continue;
    int usual =
        std::max_element(tally.spelling[word].begin(), tally.spelling[word].end(), [](const auto& a, const auto& b) {
          return a.second < b.second;
        })->first;
    for (const auto& s : tally.sites) {
      const auto& spelled = s.words[word];
      if (spelled.empty() || spelled_as(s.arg->text, spelled, word) >= 0) continue;
      std::string says = word == kVersion ? s.file->variant->package_word : spelled[0];
      std::string right = word == kVersion ? s.file->variant->package_word
                                           : spelled[std::min<size_t>(static_cast<size_t>(usual), spelled.size() - 1)];
      Problem& p =
          sink.add(*s.file, "TLR045", s.arg->span,
                   fmt::format("{} = \"{}\" contradicts the name, whose {} is {} ({} of {} calls of {} pass the name's "
                               "{}): the builder builds what the argument says, not what the name promises",
                               s.arg->key, s.arg->text, kWordName[static_cast<size_t>(word)], says, tally.agree[word],
                               tally.have[word], key.first, kWordName[static_cast<size_t>(word)]),
                   word == kVersion ? fmt::format("call the builder with the version the name says, or rename the file")
                                    : fmt::format("call the builder with {} = \"{}\", as the name says (check --fix, "
                                                  "adopt --fix-calls), or rename the file",
                                                  s.arg->key, right));
      // The call the name says (check --fix, adopt --fix-calls): the argument in the tree's usual spelling.
      if (word == kVersion) continue;
      if (auto e = rename_at(s.file->text(), s.arg->span, s.arg->text, right)) {
        p.fix.push_back(*e);
        p.fix_summary = fmt::format("{} \"{}\" → \"{}\", as the name says", s.arg->key, s.arg->text, right);
      }
    }
  }
}

}  // namespace tailor::lint
