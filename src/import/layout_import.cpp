#include "import/layout_import.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "import/put_back.hpp"
#include "import/text_columns.hpp"
#include "import/varying_text.hpp"
#include "kb/driver_rule.hpp"
#include "matrix/layout_words.hpp"
#include "matrix/template_words.hpp"
#include "util/diagnostic.hpp"
#include "util/quote.hpp"
#include "util/toml_reader.hpp"

namespace tailor {

namespace {

bool number_char(char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '_'; }
bool alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// Whether \a value stands alone at \a at of \a text: no digit, '.' or '_'
// goes on either side ("80" is not the SM in "580"), and a word that begins
// (ends) with a letter has no letter before (after) it. "SM90" gives "90".
bool stands_alone(const std::string& text, size_t at, const std::string& value) {
  char before = at ? text[at - 1] : ' ';
  size_t end = at + value.size();
  char after = end < text.size() ? text[end] : ' ';
  if (number_char(before) || number_char(after)) return false;
  if (std::isalpha(static_cast<unsigned char>(value.front())) && alnum(before)) return false;
  if (std::isalpha(static_cast<unsigned char>(value.back())) && alnum(after)) return false;
  return true;
}

// Words that share a value ("2.10" is torchaudio's and torch's version) are put
// back as one placeholder naming both, "{torch_mm__version_mm}": the files of a
// backend together tell which one the text means.
constexpr std::string_view kOr = "__";

std::set<std::string> candidates(const std::string& word) {
  std::set<std::string> out;
  size_t i = 0;
  while (true) {
    size_t j = word.find(kOr, i);
    out.insert(word.substr(i, j == std::string::npos ? std::string::npos : j - i));
    if (j == std::string::npos) return out;
    i = j + kOr.size();
  }
}

// The words to put back, longest values first; words that share a value are one placeholder.
std::vector<PutWord> put_words(const std::map<std::string, std::string>& one_by_one) {
  std::map<std::string, std::string> by_value;
  for (const auto& [word, value] : one_by_one)
    by_value[value] += (by_value[value].empty() ? "" : std::string(kOr)) + word;
  std::map<std::string, std::string> words;
  for (const auto& [value, word] : by_value) words[word] = value;
  std::vector<PutWord> by_length;
  for (const auto& [word, value] : words) by_length.push_back({"{" + word + "}", value});
  std::stable_sort(by_length.begin(), by_length.end(),
                   [](const PutWord& a, const PutWord& b) { return a.value.size() > b.value.size(); });
  return by_length;
}

std::string put_back_words(const std::string& text, const std::vector<PutWord>& words) {
  return put_back(text, words, [](const std::string& t, size_t at, size_t end) {
    return stands_alone(t, at, t.substr(at, end - at));
  });
}

// A GPU name of \a names that the knowledge base lists under another SM than \a sm.
std::vector<std::pair<std::string, const GpuArch*>> misplaced(const std::string& names, const std::string& sm,
                                                              const KnowledgeBase& kb) {
  std::vector<std::pair<std::string, const GpuArch*>> out;
  size_t i = 0;
  while (i <= names.size()) {
    size_t comma = names.find(", ", i);
    std::string item = names.substr(i, comma == std::string::npos ? std::string::npos : comma - i);
    // Misplaced: listed under another SM and not under this one (DRIVE Thor is 10.1 and 11.0).
    auto lists = [&](const GpuArch& g) {
      return std::find(g.products.begin(), g.products.end(), item) != g.products.end() ||
             std::find(g.also_called.begin(), g.also_called.end(), item) != g.also_called.end();
    };
    const GpuArch* own = kb.gpu(sm);
    if (!own || !lists(*own))
      for (const auto& g : kb.gpus)
        if (g.sm != sm && lists(g)) {
          out.emplace_back(item, &g);
          break;
        }
    if (comma == std::string::npos) break;
    i = comma + 2;
  }
  return out;
}

std::string without_items(const std::string& names, const std::set<std::string>& drop) {
  std::vector<std::string> kept;
  size_t i = 0;
  while (i <= names.size()) {
    size_t comma = names.find(", ", i);
    std::string item = names.substr(i, comma == std::string::npos ? std::string::npos : comma - i);
    if (!drop.count(item)) kept.push_back(item);
    if (comma == std::string::npos) break;
    i = comma + 2;
  }
  return fmt::format("{}", fmt::join(kept, ", "));
}

struct Wrapper {
  const Variant* v;
  const std::string* text;
  std::map<std::string, std::string> words;
  std::string arch;
};
using Pieces = std::vector<TemplatePiece>;

// The variants' wrappers in \a dir, by backend, with the words put back ({sm_nodot} for "90").
std::map<std::string, std::vector<Wrapper>> wrappers_by_backend(const std::vector<recipe::SourceFile>& files,
                                                                const Spec& spec, const Matrix& m,
                                                                const KnowledgeBase& kb, const std::string& dir) {
  std::map<std::string, const std::string*> by_rel;
  for (const auto& f : files) by_rel[f.rel] = &f.text;
  std::map<std::string, std::vector<Wrapper>> backends;
  for (const auto& v : m.variants) {
    auto it = by_rel.find(dir + "/" + v.name + ".nix");
    if (it == by_rel.end()) continue;
    Wrapper w{&v, it->second, layout_words(v, spec, kb), ""};
    w.arch = w.words.count("arch") ? w.words.at("arch") : "";
    // Learnt from the files, not put back: the team's GPU names and driver floors.
    w.words.erase("gpu_names");
    w.words.erase("driver");
    backends[v.backend].push_back(std::move(w));
  }
  return backends;
}

// A wrapper's shape: its words in order, its literal text left out.
std::string shape_of(const Pieces& ps) {
  std::string out;
  for (const auto& p : ps) out += p.word ? "{" + p.text + "}" : "|";
  return out;
}

// Learns one template per backend from its wrappers (and one per family for the files of
// another text than their backend's): the variant's words put back, and the text that still
// varies read as the team's GPU names (one per SM and platform) or driver floor (one per CUDA).
class TemplateLearner {
 public:
  /// \a words: the variant scope's words in the table's order (scope_words).
  TemplateLearner(const std::string& dir, std::vector<std::string> words) : dir_(dir), words_(std::move(words)) {}

  /// Learns the template of \a ws under \a backend (a backend, or a family for its odd
  /// files); \a split: the files of another shape are set apart by family (odd). False
  /// (and why) when the files fit no template.
  bool learn(const std::string& backend, std::vector<Wrapper>& ws, bool split);

  std::map<std::string, std::string> templates;                 ///< backend (or family) -> template
  std::map<std::string, std::string> gpu_names;                 ///< "SM arch" -> the names the wrappers write
  std::map<std::string, std::string> tree_driver;               ///< CUDA -> the floor the wrappers write
  std::map<std::string, std::vector<std::string>> target_text;  ///< ISA -> the texts the wrappers write for it
  std::map<std::string, std::vector<std::string>> sm_texts;     ///< "SM arch" -> texts beside the GPU names
  std::map<std::string, std::vector<Wrapper>> odd;  ///< by family: files of another text than their backend's
  std::set<std::string> in_backends;                ///< the families of the files a backend's template gives
  std::string why;

 private:
  // One try of learn: \a aligning, words that only some files write are read as text (align).
  bool learn(const std::string& backend, std::vector<Wrapper>& ws, bool split, bool aligning);
  // The steps of a try, in order.
  std::vector<Pieces> pieces_of(std::vector<Wrapper>& ws, bool split) const;
  void align(const std::vector<Wrapper>& ws, std::vector<Pieces>& pieces) const;
  void set_odd_apart(std::vector<Wrapper>& ws, std::vector<Pieces>& pieces);
  bool same_words(const std::string& backend, const std::vector<Wrapper>& ws, const std::vector<Pieces>& pieces,
                  std::vector<std::set<std::string>>& allowed);
  bool literal_text(const std::string& backend, const std::vector<Wrapper>& ws, const std::vector<std::string>& texts,
                    std::string& tmpl);
  bool varying_text(const std::string& backend, const std::vector<Wrapper>& ws, const std::vector<std::string>& texts,
                    std::string& tmpl);
  bool gives_back(const std::string& tmpl, const std::vector<Wrapper>& ws);
  // \a w's words with the floor and names its backend's files write (and, where \a texts, the
  // texts per CPU target and per SM).
  std::map<std::string, std::string> words_of(const Wrapper& w, bool texts = true) const;

  std::string dir_;
  std::vector<std::string> words_;
};

std::map<std::string, std::string> TemplateLearner::words_of(const Wrapper& w, bool texts) const {
  auto words = w.words;
  if (auto d = tree_driver.find(w.v->cuda); d != tree_driver.end()) words["driver"] = d->second;
  if (auto g = gpu_names.find(w.v->sm + " " + w.arch); g != gpu_names.end()) words["gpu_names"] = g->second;
  if (texts) {
    text_words(target_text, w.v->isa, "text", words);
    text_words(sm_texts, w.v->sm + " " + w.arch, "sm_text", words);
  }
  return words;
}

// Each file with the words put back, cut into pieces: the words must be the same, the literal text may vary.
// A line that files of different values of a word write alike does not carry that word
// (`platforms = [ "x86_64-linux" "aarch64-linux" ]` names both platforms in each file that
// writes it): in each line only the words that every file writing it gives one value are put back.
std::vector<Pieces> TemplateLearner::pieces_of(std::vector<Wrapper>& ws, bool split) const {
  std::map<std::string_view, std::map<std::string, std::string>> shared;  // line -> its words
  for (auto& w : ws) {
    // An odd file writes the floors and names its backend's files write; its texts per CPU target
    // it learns apart (a text put back would be read as part of another).
    if (!split) w.words = words_of(w, false);
    for (std::string_view l : lines_of(*w.text)) {
      auto [it, first] = shared.try_emplace(l, w.words);
      if (!first)
        std::erase_if(it->second, [&](const auto& e) {
          auto own = w.words.find(e.first);
          return own == w.words.end() || own->second != e.second;
        });
    }
  }
  std::map<std::string_view, std::vector<PutWord>> words;
  for (const auto& [l, by_word] : shared) words[l] = put_words(by_word);
  std::vector<Pieces> pieces;
  for (const auto& w : ws) {
    std::string text;
    for (std::string_view l : lines_of(*w.text)) text += put_back_words(std::string(l), words.at(l));
    pieces.push_back(template_pieces(text));
  }
  return pieces;
}

// \a p with the words the \a common shape lacks read as their values (text), where the common
// shape's words are \a p's in order: a word that only some files write at a place ("armv9" in
// "-march=armv9-a") is text there. Nullopt where they are not.
std::optional<Pieces> aligned(const Pieces& p, const std::vector<std::string>& common, const Wrapper& w) {
  Pieces out;
  size_t j = 0;
  auto text = [&](const std::string& t) {
    if (out.empty() || out.back().word) out.push_back({false, ""});
    out.back().text += t;
  };
  for (const auto& piece : p) {
    if (!piece.word) {
      text(piece.text);
    } else if (j < common.size() && piece.text == common[j]) {
      out.push_back(piece);
      ++j;
    } else {
      auto value = w.words.find(*candidates(piece.text).begin());
      if (value == w.words.end()) return std::nullopt;
      text(value->second);
    }
  }
  if (j != common.size()) return std::nullopt;
  return out;
}

// Files whose words are the most common shape's and more have the others read as text.
void TemplateLearner::align(const std::vector<Wrapper>& ws, std::vector<Pieces>& pieces) const {
  std::map<std::string, int> shapes;
  for (const auto& p : pieces) shapes[shape_of(p)]++;
  const Pieces* most = nullptr;
  for (const auto& p : pieces)
    if (!most || shapes[shape_of(p)] > shapes[shape_of(*most)]) most = &p;
  std::vector<std::string> common;
  for (const auto& piece : *most)
    if (piece.word) common.push_back(piece.text);
  const std::string shape = shape_of(*most);
  for (size_t k = 0; k < pieces.size(); ++k)
    if (shape_of(pieces[k]) != shape)
      if (std::optional<Pieces> a = aligned(pieces[k], common, ws[k])) pieces[k] = std::move(*a);
}

// The most common shape is the backend's; the others are their families' own.
void TemplateLearner::set_odd_apart(std::vector<Wrapper>& ws, std::vector<Pieces>& pieces) {
  std::map<std::string, int> shapes;
  for (const auto& p : pieces) shapes[shape_of(p)]++;
  std::string common = std::max_element(shapes.begin(), shapes.end(), [](const auto& x, const auto& y) {
                         return x.second < y.second;
                       })->first;
  std::vector<Wrapper> kept;
  std::vector<Pieces> kept_pieces;
  for (size_t k = 0; k < ws.size(); ++k) {
    if (shape_of(pieces[k]) == common) {
      kept.push_back(ws[k]);
      kept_pieces.push_back(std::move(pieces[k]));
    } else {
      odd[ws[k].v->family].push_back(ws[k]);
    }
  }
  for (const auto& w : kept) in_backends.insert(w.v->family);
  ws = std::move(kept);
  pieces = std::move(kept_pieces);
}

// Whether every file has the first's words at the same places; \a allowed: the words each
// place may be, those every file allows there.
bool TemplateLearner::same_words(const std::string& backend, const std::vector<Wrapper>& ws,
                                 const std::vector<Pieces>& pieces, std::vector<std::set<std::string>>& allowed) {
  for (const auto& p : pieces.front()) allowed.push_back(p.word ? candidates(p.text) : std::set<std::string>{});
  auto same = [&](const Pieces& a) {
    if (a.size() != pieces.front().size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i].word != pieces.front()[i].word) return false;
      if (!a[i].word) continue;
      std::set<std::string> both, here = candidates(a[i].text);
      std::set_intersection(allowed[i].begin(), allowed[i].end(), here.begin(), here.end(),
                            std::inserter(both, both.begin()));
      if (both.empty()) return false;
      allowed[i] = std::move(both);
    }
    return true;
  };
  auto bad = std::find_if_not(pieces.begin(), pieces.end(), same);
  if (bad == pieces.end()) return true;
  why = fmt::format("the {} wrappers are not one text with the variant's words ({} and {} differ)", backend,
                    ws.front().v->name, ws[bad - pieces.begin()].v->name);
  return false;
}

// A literal piece whose \a texts differ between the files: what varies is a driver floor per
// CUDA, GPU names per SM and platform, a text per CPU target ([layout.targets]) or another
// text per SM ([layout.sm_texts]); appended to \a tmpl as that word.
bool TemplateLearner::varying_text(const std::string& backend, const std::vector<Wrapper>& ws,
                                   const std::vector<std::string>& texts, std::string& tmpl) {
  Varying var = varying(texts);
  if (var.middles.empty()) {
    why = fmt::format("the {} wrappers differ in text that is no word of the variant", backend);
    return false;
  }
  std::map<std::string, std::set<std::string>> by_cuda, by_gpu, by_isa;
  bool digits = true, one_line = true;
  for (size_t k = 0; k < ws.size(); ++k) {
    const std::string& mid = var.middles[k];
    digits = digits && !mid.empty() && std::all_of(mid.begin(), mid.end(), ::isdigit);
    one_line = one_line && mid.find('\n') == std::string::npos;
    by_cuda[ws[k].v->cuda].insert(mid);
    by_gpu[ws[k].v->sm + " " + ws[k].arch].insert(mid);
    by_isa[ws[k].v->isa].insert(mid);
  }
  auto single = [](const auto& by) {
    return std::all_of(by.begin(), by.end(), [](const auto& e) { return e.second.size() == 1; });
  };
  // What another place of the files wrote for the same key, it writes here too.
  auto agrees = [](const std::map<std::string, std::string>& learnt, const auto& by) {
    return std::all_of(by.begin(), by.end(), [&](const auto& e) {
      auto known = learnt.find(e.first);
      return known == learnt.end() || known->second == *e.second.begin();
    });
  };
  auto none_lack = [&](std::string Variant::*key) {
    return std::none_of(ws.begin(), ws.end(), [&](const Wrapper& w) { return (w.v->*key).empty(); });
  };
  std::optional<std::string> column;
  if (digits && single(by_cuda) && !by_cuda.count("") && agrees(tree_driver, by_cuda)) {
    tmpl += var.prefix + "{driver}" + var.suffix;
    for (const auto& [cuda, values] : by_cuda) tree_driver[cuda] = *values.begin();
  } else if (one_line && single(by_gpu) && none_lack(&Variant::sm) && agrees(gpu_names, by_gpu)) {
    tmpl += var.prefix + "{gpu_names}" + var.suffix;
    for (const auto& [key, values] : by_gpu) gpu_names[key] = *values.begin();
  } else if (const Varying lines = whole_lines(whole_strings(var));
             single(by_isa) && none_lack(&Variant::isa) &&
             (one_line || std::all_of(lines.middles.begin(), lines.middles.end(), string_lines))) {
    // The team's text per CPU target ([layout.targets]): a list of compiler flags over lines is taken whole.
    std::map<std::string, std::string> texts;
    for (size_t k = 0; k < ws.size(); ++k) texts[ws[k].v->isa] = lines.middles[k];
    column = record_texts(texts, target_text, "text");
    if (!column) {
      why = fmt::format("the {} wrappers write more than nine texts per CPU target", backend);
      return false;
    }
    tmpl += lines.prefix + "{" + *column + "}" + lines.suffix;
  } else if (one_line && single(by_gpu) && none_lack(&Variant::sm)) {
    // A second text per SM beside its GPU names ("GPU Target: 8.0 (Ampere A100)"): the team's words.
    std::map<std::string, std::string> texts;
    for (const auto& [key, values] : by_gpu) texts[key] = *values.begin();
    column = record_texts(texts, sm_texts, "sm_text");
    if (!column) {
      why = fmt::format("the {} wrappers write more than nine texts per SM", backend);
      return false;
    }
    tmpl += var.prefix + "{" + *column + "}" + var.suffix;
  } else {
    size_t other = std::find_if(var.middles.begin(), var.middles.end(),
                                [&](const std::string& m) { return m != var.middles.front(); }) -
                   var.middles.begin();
    why = fmt::format(
        "the {} wrappers differ in '{}' and '{}', which is neither a word of the variant, nor "
        "one text per SM, per CPU target or per CUDA (a driver floor)",
        backend, comment_text(var.middles.front()), comment_text(var.middles[other]));
    return false;
  }
  return true;
}

// A literal piece of \a texts (one per file), appended to \a tmpl: the same in every file, or
// varying. Where every file has as many lines there, each line varies apart: a line may write
// GPU names and another a driver floor.
bool TemplateLearner::literal_text(const std::string& backend, const std::vector<Wrapper>& ws,
                                   const std::vector<std::string>& texts, std::string& tmpl) {
  auto same = [](const std::vector<std::string>& ts) {
    return std::all_of(ts.begin(), ts.end(), [&](const std::string& t) { return t == ts.front(); });
  };
  if (same(texts)) {
    tmpl += texts.front();
    return true;
  }
  std::vector<std::vector<std::string_view>> lines;
  for (const auto& t : texts) lines.push_back(lines_of(t));
  bool by_line = lines.front().size() > 1 && std::all_of(lines.begin(), lines.end(), [&](const auto& ls) {
                   return ls.size() == lines.front().size();
                 });
  if (!by_line) return varying_text(backend, ws, texts, tmpl);
  for (size_t i = 0; i < lines.front().size(); ++i) {
    std::vector<std::string> line;
    for (const auto& ls : lines) line.emplace_back(ls[i]);
    if (same(line))
      tmpl += line.front();
    else if (!varying_text(backend, ws, line, tmpl))
      return false;
  }
  return true;
}

// Proof: the template with the tree's own values gives every file back.
bool TemplateLearner::gives_back(const std::string& tmpl, const std::vector<Wrapper>& ws) {
  for (const auto& w : ws) {
    std::string text;
    try {
      text = render_layout_template(tmpl, *w.v, words_of(w));
    } catch (const DiagnosticError& e) {  // a text the template cannot write safely where it stands
      why = e.diagnostic().message;
      return false;
    }
    if (text != *w.text) {
      why = fmt::format("{}/{}.nix is not its backend's wrapper text", dir_, w.v->name);
      return false;
    }
  }
  return true;
}

bool TemplateLearner::learn(const std::string& backend, std::vector<Wrapper>& ws, bool split) {
  // First with the words only some files write read as text; where that fits no template, as written.
  TemplateLearner before = *this;
  std::vector<Wrapper> all = ws;
  if (learn(backend, ws, split, true)) return true;
  *this = std::move(before);
  ws = std::move(all);
  return learn(backend, ws, split, false);
}

bool TemplateLearner::learn(const std::string& backend, std::vector<Wrapper>& ws, bool split, bool aligning) {
  std::vector<Pieces> pieces = pieces_of(ws, split);
  if (aligning) align(ws, pieces);
  if (split) set_odd_apart(ws, pieces);
  std::vector<std::set<std::string>> allowed;
  if (!same_words(backend, ws, pieces, allowed)) return false;
  std::string tmpl;
  for (size_t i = 0; i < pieces.front().size(); ++i) {
    const TemplatePiece& first = pieces.front()[i];
    if (first.word) {  // of the words still allowed, the first the variant scope lists
      auto w = std::find_if(words_.begin(), words_.end(), [&](const std::string& k) { return allowed[i].count(k); });
      if (w == words_.end()) {  // the team's own text in braces ("f'{prefix}'"), which a template reads as a word
        why = fmt::format("the {} wrappers write '{{{}}}', which a template would read as a word", backend,
                          comment_text(first.text));
        return false;
      }
      tmpl += "{" + *w + "}";
      continue;
    }
    std::vector<std::string> texts;
    for (const auto& p : pieces) texts.push_back(p[i].text);
    if (!literal_text(backend, ws, texts, tmpl)) return false;
  }
  templates[backend] = tmpl;
  return gives_back(tmpl, ws);
}

// One value per SM where both platforms agree; the platform's own where not: \a gpu_names
// (GPU names, or texts) by "SM arch".
template <class Value>
std::map<std::string, Value> names_per_sm(const std::map<std::string, Value>& gpu_names) {
  std::map<std::string, std::map<Value, int>> per_sm;
  for (const auto& [key, names] : gpu_names) per_sm[key.substr(0, key.find(' '))][names]++;
  std::map<std::string, Value> recorded;
  for (const auto& [key, names] : gpu_names) {
    std::string sm = key.substr(0, key.find(' '));
    const auto& counts = per_sm.at(sm);
    auto common = std::max_element(counts.begin(), counts.end(),
                                   [](const auto& a, const auto& b) { return a.second < b.second; });
    recorded[names == common->first ? sm : key] = names;
  }
  return recorded;
}

// A product the knowledge base places under another SM is dropped from \a names: the wrapper's
// text is corrected, and said in \a corrected.
void drop_misplaced(std::map<std::string, std::string>& names_by_key, const KnowledgeBase& kb,
                    std::vector<std::string>& corrected) {
  std::set<std::string> emptied;
  for (auto& [key, names] : names_by_key) {
    std::string sm = key.substr(0, key.find(' '));
    std::set<std::string> drop;
    for (const auto& [item, g] : misplaced(names, sm, kb)) {
      drop.insert(item);
      corrected.push_back(fmt::format("GPU names of SM {}{}: {} dropped: the knowledge base lists it under SM {}", sm,
                                      key.size() > sm.size() ? " (" + key.substr(sm.size() + 1) + ")" : "", item,
                                      g->sm));
    }
    if (!drop.empty()) names = without_items(names, drop);
    if (!drop.empty() && names.empty()) emptied.insert(key);
  }
  // Where every name was another SM's, the knowledge base's names are written (no entry).
  for (const auto& key : emptied) names_by_key.erase(key);
}

// A floor is kept where it meets the driver rule for a GPU; corrected (and said) for the GPUs it is too low for.
void correct_floors(const std::map<std::string, std::string>& tree_driver, const Matrix& m, const KnowledgeBase& kb,
                    std::vector<std::string>& corrected) {
  for (const auto& [cuda, floor] : tree_driver) {
    const CudaToolkit* t = kb.cuda(cuda);
    if (!t) continue;
    std::vector<std::string> wrong;
    std::vector<const GpuArch*> low;
    std::set<const GpuArch*> seen;
    for (const auto& v : m.variants)
      if (v.cuda == cuda)
        for (const auto& sm : v.sms())
          if (const GpuArch* g = kb.gpu(sm); g && seen.insert(g).second)
            if (auto f = driver_floor(*t, g); f && !written_floor_meets(floor, f->floor)) {
              wrong.push_back(f->why);
              low.push_back(g);
            }
    if (!wrong.empty())
      corrected.push_back(fmt::format("driver floor of CUDA {}: {} becomes {} for the GPUs it is too low for ({})",
                                      cuda, floor, written_floor(*t, low, floor), fmt::join(wrong, "; ")));
  }
}

// The builder: the .nix files below the wrappers' folder; the script: what names the builder the
// wrappers import. Into \a layout's keep and replaces.
void builder_and_script(const std::vector<recipe::SourceFile>& files, Layout& layout) {
  std::set<std::string> import_names;
  for (const auto& [backend, tmpl] : layout.wrapper) {
    size_t at = tmpl.find("import ./");
    if (at == std::string::npos) continue;
    size_t end = tmpl.find_first_of(" \n;{", at + 9);
    import_names.insert(std::filesystem::path(tmpl.substr(at + 9, end - at - 9)).filename().string());
  }
  const std::string& dir = layout.dir;
  for (const auto& f : files) {
    bool nix = f.rel.ends_with(".nix");
    // The builder's files are in the wrappers' subfolders (lib/): what the wrappers import.
    if (nix && f.rel.starts_with(dir + "/") && f.rel.find('/', dir.size() + 1) != std::string::npos)
      layout.keep.push_back(f.rel);
    if (!nix && !f.rel.ends_with(".md") && layout.replaces.empty())
      for (const auto& n : import_names)
        if (!n.empty() && f.text.find(n) != std::string::npos) layout.replaces.push_back(f.rel);
  }
  std::sort(layout.keep.begin(), layout.keep.end());
}

}  // namespace

std::optional<std::string> wrapper_dir(const std::vector<recipe::SourceFile>& files, const Matrix& m) {
  std::set<std::string> names;
  for (const auto& v : m.variants) names.insert(v.name + ".nix");
  std::map<std::string, int> dirs;
  for (const auto& f : files) {
    std::filesystem::path p(f.rel);
    if (names.count(p.filename().string())) dirs[p.parent_path().generic_string()]++;
  }
  if (dirs.empty()) return std::nullopt;
  return std::max_element(dirs.begin(), dirs.end(), [](const auto& a, const auto& b) { return a.second < b.second; })
      ->first;
}

LayoutImport import_layout(const std::vector<recipe::SourceFile>& files, const Spec& spec, const Matrix& m,
                           const KnowledgeBase& kb, const std::string& dir) {
  LayoutImport out;
  TemplateLearner learner(dir, scope_words(WordScope::variant, paired_attributes(kb)));
  auto backends = wrappers_by_backend(files, spec, m, kb, dir);
  for (const auto& [backend, ws] : backends)
    for (const auto& w : ws)
      if (!is_utf8(*w.text)) {  // the template and texts go into the spec, which is TOML: UTF-8 alone
        out.why = fmt::format("{}/{}.nix is not UTF-8 text, which a spec cannot hold", dir, w.v->name);
        return out;
      } else if (int c = control_char(*w.text); c >= 0) {
        out.why =
            fmt::format("{}/{}.nix holds the control character U+{:04X}, which a spec cannot hold", dir, w.v->name, c);
        return out;
      }
  for (auto& [backend, ws] : backends)
    if (!learner.learn(backend, ws, true)) {
      out.why = learner.why;
      return out;
    }
  // A family's template is its every variant's: files set apart whose family also has files of its
  // backend's text, or that are not one text, stay the team's own (kept, each with why); what
  // learning them had taken in is given back.
  std::vector<std::pair<std::string, std::string>> kept;
  std::map<std::string, std::vector<Wrapper>> odd = std::move(learner.odd);
  for (auto& [family, ws] : odd) {
    std::string why;
    if (learner.in_backends.count(family)) {
      why = fmt::format("other wrappers of its family ({}) are of its backend's text", family);
    } else {
      TemplateLearner before = learner;
      if (learner.learn(family, ws, false)) continue;
      why = learner.why;
      learner = std::move(before);
    }
    for (const auto& w : ws) kept.emplace_back(dir + "/" + w.v->name + ".nix", why);
  }
  if (learner.templates.empty()) {
    out.why = "no variant of the spec has a file in " + dir;
    return out;
  }
  std::map<std::string, std::string> recorded = names_per_sm(learner.gpu_names);
  out.team_gpu_names = recorded;
  drop_misplaced(recorded, kb, out.corrected);
  out.team_driver = learner.tree_driver;
  correct_floors(learner.tree_driver, m, kb, out.corrected);
  out.layout.dir = dir;
  out.layout.wrapper = learner.templates;
  out.layout.gpu_names = recorded;
  out.layout.target_text = learner.target_text;
  out.layout.sm_texts = names_per_sm(learner.sm_texts);
  for (auto& [path, why] : kept) {
    out.layout.keep.push_back(path);
    out.own_wrappers.insert(path);
    out.kept_why[path] = std::move(why);
  }
  builder_and_script(files, out.layout);
  return out;
}

namespace {

// A list of texts of [layout.targets] or [layout.sm_texts] as TOML: false where there is none.
std::string toml_texts(const std::vector<std::string>& texts) {
  std::vector<std::string> q;
  for (const auto& x : texts) q.push_back(x == Layout::kNoText ? "false" : toml_string(x));
  return fmt::format("[{}]", fmt::join(q, ", "));
}

}  // namespace

Layout spec_layout(const LayoutImport& li) {
  Layout l = li.layout;
  l.drivers = li.team_driver;
  if (!l.pages.empty()) l.arch_names = li.arch_names;
  return l;
}

std::string layout_toml(const Layout& l) {
  std::string t =
      "\n# The tree keeps its own builder: tailor generate writes the wrappers below from this spec\n"
      "# and the knowledge base, and never writes the files kept.\n[layout]\n";
  t += fmt::format("dir = {}\n", toml_string(l.dir));
  std::vector<std::string> keep;
  for (const auto& k : l.keep) keep.push_back(toml_string(k));
  t += fmt::format("keep = [{}]\n", fmt::join(keep, ", "));
  if (l.replaces.size() == 1) t += fmt::format("replaces = {}\n", toml_string(l.replaces.front()));
  if (l.replaces.size() > 1) {
    std::vector<std::string> scripts;
    for (const auto& r : l.replaces) scripts.push_back(toml_string(r));
    t += fmt::format("replaces = [{}]\n", fmt::join(scripts, ", "));
  }
  t += "\n[layout.wrapper]\n";
  for (const auto& [backend, tmpl] : l.wrapper) t += fmt::format("{} = {}\n", backend, toml_string(tmpl));
  if (!l.gpu_names.empty()) {
    t += "\n# The GPU names the wrappers write, by SM (and platform where it has its own).\n[layout.gpu_names]\n";
    for (const auto& [key, names] : l.gpu_names) t += fmt::format("{} = {}\n", toml_string(key), toml_string(names));
  }
  if (!l.sm_texts.empty()) {
    t += "\n# What the wrappers write per SM beside its GPU names ({sm_text}, {sm_text_2}): the team's\n"
         "# own words. A new SM needs its texts here.\n[layout.sm_texts]\n";
    for (const auto& [key, texts] : l.sm_texts) t += fmt::format("{} = {}\n", toml_string(key), toml_texts(texts));
  }
  if (!l.drivers.empty()) {
    t += "\n# The driver floors the team's files write, by CUDA: kept where they meet what the GPU\n"
         "# needs (the CUDA major's compatibility floor and the GPU's first driver branch).\n[layout.drivers]\n";
    for (const auto& [cuda, floor] : l.drivers) t += fmt::format("{} = {}\n", toml_string(cuda), toml_string(floor));
  }
  if (!l.tables.empty()) {
    t += "\n# The tables the builder reads and the pages the scripts wrote: the team's text, each\n"
         "# {word@key} a fact tailor generate writes from the knowledge base.\n[layout.tables]\n";
    for (const auto& [path, tmpl] : l.tables) t += fmt::format("{} = {}\n", toml_string(path), toml_text(tmpl));
  }
  if (!l.pages.empty()) {
    t += "\n# The pages the scripts wrote, one per (version, CUDA) cell of the matrix: {#sm} … {/sm}\n"
         "# repeats per SM the cell builds, {#target} per CPU target; doc/spec.md lists the words.\n"
         "[layout.pages]\n";
    for (const auto& [path, tmpl] : l.pages) t += fmt::format("{} = {}\n", toml_string(path), toml_text(tmpl));
  }
  if (!l.arch_names.empty()) {
    t += "\n# The team's own names of architectures, where they are fair but not NVIDIA's family name.\n"
         "[layout.arch_names]\n";
    for (const auto& [sm, name] : l.arch_names) t += fmt::format("{} = {}\n", toml_string(sm), toml_string(name));
  }
  if (!l.target_text.empty()) {
    bool in_wrappers = std::any_of(l.wrapper.begin(), l.wrapper.end(), [](const auto& w) {
      return w.second.find("{text}") != std::string::npos || w.second.find("{text_") != std::string::npos;
    });
    t += in_wrappers ? "\n# What the wrappers ({text}, {text_2}) and a page's rows ({text@target}) write per CPU "
                       "target.\n[layout.targets]\n"
                     : "\n# What a page's row writes per CPU target ({text@target}, {text_2@target}).\n"
                       "[layout.targets]\n";
    for (const auto& [isa, texts] : l.target_text) t += fmt::format("{} = {}\n", isa, toml_texts(texts));
  }
  return t;
}

}  // namespace tailor
