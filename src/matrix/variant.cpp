#include "matrix/variant.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "matrix/spec.hpp"

namespace tailor {

std::string Variant::version_of(std::string_view p) const {
  for (const auto& [name, version] : versions)
    if (name == p) return version;
  return {};
}

namespace {

// Fills \a tmpl segment by segment, each filled segment spelled as \a spelling
// says; a segment spelled "" is left out with its '-'.
std::string spelled(std::string_view tmpl, const std::vector<std::pair<std::string, std::string>>& values,
                    const std::map<std::string, std::string>& spelling) {
  std::string out;
  for (const auto& seg : template_segments(tmpl)) {
    std::string filled = fill_template(seg, values);
    if (auto it = spelling.find(filled); it != spelling.end()) filled = it->second;
    if (filled.empty()) continue;
    out += (out.empty() ? "" : "-") + filled;
  }
  return out;
}

}  // namespace

std::string variant_name_from_tokens(const PackageDef& package, const BackendDef& backend, const NameTokens& t) {
  std::string word = t.package_word.empty() ? package.name : std::string(t.package_word);
  // A baseline ISA has no word: its segment goes, with its '-' (spelled() leaves out empty segments).
  static const std::map<std::string, std::string> kNoSpelling;
  if (t.isa.empty() && !t.spelling)
    return variant_name_from_tokens(package, backend, {t.python, t.cuda, t.sm, t.isa, &kNoSpelling, t.package_word});
  if (t.spelling && (!t.spelling->empty() || t.isa.empty())) {
    std::string part =
        spelled(backend.name_part,
                {{"cuda", std::string(t.cuda)}, {"sm", std::string(t.sm)}, {"isa", std::string(t.isa)}}, *t.spelling);
    std::map<std::string, std::string> whole = *t.spelling;
    whole.erase(part);  // the backend part is spelled already
    return spelled(package.variant_name, {{"package", word}, {"python", std::string(t.python)}, {"backend", part}},
                   whole);
  }
  std::string part = fill_template(
      backend.name_part, {{"cuda", std::string(t.cuda)}, {"sm", std::string(t.sm)}, {"isa", std::string(t.isa)}});
  return fill_template(package.variant_name, {{"package", word}, {"python", std::string(t.python)}, {"backend", part}});
}

std::string variant_name(const Variant& v, const KnowledgeBase& kb,
                         const std::map<std::string, std::string>* spelling) {
  const PythonVersion* py = kb.python(v.python);
  const CudaToolkit* c = kb.cuda(v.cuda);
  const GpuArch* g = kb.gpu(v.sm);
  const CpuIsa* isa = kb.isa(v.isa);
  std::string python = py ? py->name_token() : "python" + v.python, cuda = c ? c->name_token() : "cuda" + v.cuda,
              sm = g                  ? g->name_token()
                   : v.sm_set.empty() ? "sm" + v.sm
                                      : v.sm;
  return variant_name_from_tokens(*kb.package(v.package), *kb.backend(v.backend),
                                  {python, cuda, sm, isa ? isa->word : v.isa, spelling, v.package_word});
}

}  // namespace tailor

namespace tailor {

namespace {

bool is_placeholder(const std::string& seg) { return seg.size() > 2 && seg.front() == '{' && seg.back() == '}'; }
// The axis a backend's placeholder names ("{cuda}"): the knowledge base closes
// backend axes to cuda, sm and isa and checks a name_part names only its own.
Axis axis_of(const std::string& seg) { return axis_from_name(seg.substr(1, seg.size() - 2)).value_or(Axis::isa); }

// What a placeholder looks like, for "the name ends before its ...".
std::string token_hint(Axis axis) {
  if (axis == Axis::cuda) return "CUDA token (like cuda12_9)";
  if (axis == Axis::sm) return "SM token (like sm90)";
  return "ISA token (like avx512)";
}

std::string join_or(const std::vector<std::string>& items) {
  if (items.size() < 2) return items.empty() ? "" : items.front();
  return fmt::format("{} or {}", fmt::join(items.begin(), items.end() - 1, ", "), items.back());
}

// The digits of a version word after \a p's name in \a name ("025" of "torchvision025-"); 0 when none.
size_t version_digits(std::string_view name, const PackageDef& p) {
  size_t i = p.name.size();
  while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i]))) ++i;
  return i < name.size() && name[i] != '-' ? 0 : i - p.name.size();
}

// "pt212": letters, then digits.
bool is_pairing_word(std::string_view t) {
  size_t letters = 0;
  while (letters < t.size() && std::islower(static_cast<unsigned char>(t[letters]))) ++letters;
  return letters > 0 && letters < t.size() &&
         std::all_of(t.begin() + static_cast<std::ptrdiff_t>(letters), t.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

class NameParser {
 public:
  NameParser(std::string_view name, const KnowledgeBase& kb, std::string& problem)
      : name_(name), kb_(kb), problem_(problem) {}

  std::optional<Variant> run() {
    auto pw = read_package_word(name_, kb_);
    if (!pw) {
      fail(fmt::format("'{}' is not a package tailor builds ({})", name_.substr(0, name_.find('-')),
                       fmt::join(kb_.package_names(), ", ")));
      return std::nullopt;
    }
    const PackageDef* p = pw->package;
    v_.package = p->name;
    size_t word = pw->word.size();
    std::string_view rest = name_.substr(std::min(name_.size(), word + 1));
    if (!rest.empty() || name_.size() > word) t_ = template_segments(rest);
    if (pw->versioned) v_.package_word = pw->word;  // "torchvision025", "torchaudio211-pt212"
    auto segs = template_segments(p->variant_name);
    for (size_t s = 1; s < segs.size(); ++s) {
      if (segs[s] == "{python}" && !python(*p)) return std::nullopt;
      if (segs[s] == "{backend}" && !backend(*p)) return std::nullopt;
      if (!is_placeholder(segs[s]) && !literal(segs[s], s)) return std::nullopt;
    }
    if (i_ != t_.size()) return fail(fmt::format("unexpected '{}' at the end of the name", t_[i_]));
    v_.name = std::string(name_);
    return v_;
  }

 private:
  std::nullopt_t fail(std::string problem) {
    problem_ = std::move(problem);
    return std::nullopt;
  }
  bool need(const std::string& what) {
    if (i_ < t_.size()) return true;
    problem_ = fmt::format("the name ends before its {}", what);
    return false;
  }

  bool python(const PackageDef& p) {
    if (i_ >= t_.size() || !t_[i_].starts_with("python")) {
      fail(fmt::format("expected a Python token like 'python313' after '{}'", p.name));
      return false;
    }
    for (const auto& py : kb_.pythons)
      if (py.name_token() == t_[i_]) v_.python = py.version;
    if (v_.python.empty()) {
      fail(fmt::format("'{}' is not a Python version of the knowledge base", t_[i_]));
      return false;
    }
    ++i_;
    return true;
  }

  bool literal(const std::string& lit, size_t s) {
    if (i_ < t_.size() && t_[i_] == lit) {
      ++i_;
      return true;
    }
    fail(fmt::format("'{}' must be followed by '{}'", s == 0 || i_ == 0 ? std::string(v_.package) : t_[i_ - 1], lit));
    return false;
  }

  // Resolves one axis token into the variant; false when the KB lacks it.
  bool axis(Axis a, const std::string& token) {
    if (a == Axis::cuda) {
      for (const auto& c : kb_.cudas)
        if (c.has_name_token(token)) v_.cuda = c.version.str();
      return !v_.cuda.empty();
    }
    if (a == Axis::sm) {
      for (const auto& g : kb_.gpus)
        if (g.has_name_token(token)) v_.sm = g.sm;
      return !v_.sm.empty();
    }
    const CpuIsa* isa = nullptr;  // by its word in names (a baseline's is none)
    for (const auto& i : kb_.isas)
      if (!token.empty() && i.word == token) isa = &i;
    if (!isa) return false;
    v_.isa = isa->name;
    v_.platform = isa->platform;
    return true;
  }

  static std::string unknown(Axis a, const std::string& token) {
    if (a == Axis::cuda) return fmt::format("'{}' is not a CUDA toolkit of the knowledge base (like cuda12_9)", token);
    if (a == Axis::sm) return fmt::format("'{}' is not an SM of the knowledge base (like sm90)", token);
    return fmt::format("'{}' is not an ISA of the knowledge base", token);
  }

  /// What may begin the backend part of a name (\a starts: "cuda12_9"-like axes and
  /// literals), and the same as a problem says it ("'cpu' or a CUDA toolkit …"). Only
  /// a name that fails needs them: check reads thousands of names that do not.
  struct Expected {
    std::vector<std::string> starts, said;
  };
  static Expected expected(const std::vector<const BackendDef*>& backends) {
    Expected e;
    std::vector<std::string> placeholders;
    for (const BackendDef* b : backends) {
      std::string first = template_segments(b->name_part).front();
      e.starts.push_back(!is_placeholder(first)
                             ? first
                             : std::string(axis_name(axis_of(first))) + (axis_of(first) == Axis::cuda ? "X_Y" : ""));
      if (is_placeholder(first))
        placeholders.push_back(unknown(axis_of(first), "").substr(10));  // "a CUDA toolkit ..."
      else
        e.said.push_back("'" + first + "'");
    }
    e.said.insert(e.said.end(), placeholders.begin(), placeholders.end());
    return e;
  }

  bool backend(const PackageDef& p) {
    std::vector<const BackendDef*> backends;
    for (const auto& b : p.backends) backends.push_back(kb_.backend(b));
    if (i_ >= t_.size()) return need(fmt::format("backend ({})", join_or(expected(backends).starts)));
    for (const BackendDef* b : backends) {
      auto segs = template_segments(b->name_part);
      if (!is_placeholder(segs.front()) && segs.front() == t_[i_]) return backend_rest(*b, segs);
    }
    for (const BackendDef* b : backends) {
      auto segs = template_segments(b->name_part);
      if (is_placeholder(segs.front()) && axis(axis_of(segs.front()), t_[i_])) return backend_rest(*b, segs);
    }
    fail(fmt::format("'{}' is not {}", t_[i_], join_or(expected(backends).said)));
    return false;
  }

  // The first segment of \a segs matched t_[i_]; the others follow.
  bool backend_rest(const BackendDef& b, const std::vector<std::string>& segs) {
    v_.backend = b.name;
    v_.accelerator = b.accelerator;
    ++i_;
    for (size_t s = 1; s < segs.size(); ++s) {
      if (!is_placeholder(segs[s])) {
        if (i_ < t_.size() && t_[i_] == segs[s]) {
          ++i_;
          continue;
        }
        fail(fmt::format("'{}' must be followed by '{}'", t_[i_ - 1], segs[s]));
        return false;
      }
      Axis a = axis_of(segs[s]);
      if (a == Axis::isa && i_ >= t_.size()) {  // no ISA word: the ISA named without one (a baseline), if there is one
        const CpuIsa* wordless = nullptr;
        for (const auto& i : kb_.isas)
          if (i.word.empty()) wordless = wordless ? nullptr : &i;
        if (wordless) {
          v_.isa = wordless->name;
          v_.platform = wordless->platform;
          continue;
        }
      }
      if (!need(token_hint(a))) return false;
      if (!axis(a, t_[i_])) {
        fail(unknown(a, t_[i_]));
        return false;
      }
      ++i_;
    }
    if (!b.platform.empty()) v_.platform = b.platform;
    return true;
  }

  std::string_view name_;
  const KnowledgeBase& kb_;
  std::string& problem_;
  std::vector<std::string> t_;
  size_t i_ = 0;
  Variant v_;
};

}  // namespace

std::optional<Variant> parse_variant_name(std::string_view name, const KnowledgeBase& kb, std::string& problem) {
  return NameParser(name, kb, problem).run();
}

std::optional<PackageWord> read_package_word(std::string_view name, const KnowledgeBase& kb) {
  // The longest package name the name begins with: names may contain '-'; a
  // version word may follow it ("torchvision025").
  const PackageDef* best = nullptr;
  for (const auto& p : kb.packages) {
    if (!name.starts_with(p.name)) continue;
    size_t end = p.name.size() + version_digits(name, p);
    if ((name.size() == end || name[end] == '-') && (!best || p.name.size() > best->name.size())) best = &p;
  }
  if (!best) return std::nullopt;
  PackageWord out{best, std::string(name.substr(0, best->name.size() + version_digits(name, *best))), false};
  out.versioned = out.word.size() > best->name.size();
  if (out.versioned && out.word.size() < name.size()) {  // a pairing word, "-pt212", unless it is the Python token
    std::string_view next = name.substr(out.word.size() + 1);
    next = next.substr(0, next.find('-'));
    if (!next.starts_with("python") && is_pairing_word(next))
      out.word = std::string(name.substr(0, out.word.size() + 1 + next.size()));
  }
  return out;
}

}  // namespace tailor
