#include "matrix/page_template.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "matrix/layout_facts.hpp"
#include "matrix/template_fill.hpp"
#include "matrix/template_words.hpp"
#include "matrix/word_quoting.hpp"
#include "util/diagnostic.hpp"

namespace tailor {

namespace {

// The word table's scope of a page's "@cell", "@sm", "@target", "@missing"; nullopt for a table word's key.
std::optional<WordScope> page_scope(std::string_view level) {
  static constexpr std::pair<std::string_view, WordScope> scopes[] = {
      {"cell", WordScope::cell}, {"sm", WordScope::sm}, {"target", WordScope::target}, {"missing", WordScope::missing}};
  for (const auto& [name, scope] : scopes)
    if (name == level) return scope;
  return std::nullopt;
}

bool name_char(char c) {
  return std::islower(static_cast<unsigned char>(c)) || c == '_' || std::isdigit(static_cast<unsigned char>(c));
}

// The blocks and conditions that enclose a node while parsing.
struct Frame {
  std::string block;  // "sm", "target", "missing", "if"
  size_t offset;
  std::vector<PageNode>* into;
  PageNode node;
  bool in_else = false;
};

bool inside(const std::vector<Frame>& stack, std::string_view block) {
  return std::any_of(stack.begin(), stack.end(), [&](const Frame& f) { return f.block == block; });
}

}  // namespace

std::vector<PageNode> parse_page_template(std::string_view t, const std::vector<std::string>& paired) {
  std::vector<PageNode> top;
  std::vector<Frame> stack;
  auto out = [&]() -> std::vector<PageNode>& {
    if (stack.empty()) return top;
    Frame& f = stack.back();
    return f.in_else ? f.node.otherwise : f.node.body;
  };
  auto add_text = [&](std::string_view s, size_t at) {
    if (s.empty()) return;
    auto& o = out();
    if (!o.empty() && o.back().kind == PageNode::Kind::text)
      o.back().text += s;
    else
      o.push_back({PageNode::Kind::text, std::string(s), at, {}, {}});
  };
  size_t i = 0, text_from = 0;
  while (i < t.size()) {
    if (t[i] != '{') {
      ++i;
      continue;
    }
    size_t close = t.find('}', i);
    if (close == std::string_view::npos) break;
    std::string_view inner = t.substr(i + 1, close - i - 1);
    bool marker = !inner.empty() && (inner[0] == '#' || inner[0] == '/') && inner.size() > 1 &&
                  std::all_of(inner.begin() + 1, inner.end(), [](char c) { return name_char(c) || c == ' '; });
    size_t at = inner.find('@');
    bool word = !marker && at != std::string_view::npos && at > 0 &&
                std::all_of(inner.begin(), inner.begin() + static_cast<long>(at), name_char) && at + 1 < inner.size() &&
                std::all_of(inner.begin() + static_cast<long>(at) + 1, inner.end(),
                            [](char c) { return name_char(c) || c == '.' || c == ' '; });
    if (!marker && !word) {
      ++i;
      continue;
    }
    add_text(t.substr(text_from, i - text_from), text_from);
    size_t end = marker ? marker_end(t, i, close + 1) : close + 1;
    if (word) {
      std::string name(inner.substr(0, at)), level(inner.substr(at + 1));
      if (auto scope = page_scope(level)) {
        if (!find_word(*scope, name, paired))
          throw PageTemplateError(i, fmt::format("'{{{}}}' is no word of the {} scope (words: {})", inner, level,
                                                 fmt::join(scope_words(*scope, paired), ", ")));
        if (level != "cell" && !inside(stack, level))
          throw PageTemplateError(i, fmt::format("'{{{}}}' stands outside a {{#{}}} block", inner, level));
      } else if (!find_word(WordScope::key, name, {})) {
        throw PageTemplateError(i, fmt::format("'{{{}}}' is no word of a page: @cell, @sm, @target, @missing or a "
                                               "table word ({}) with its key",
                                               inner, fmt::join(scope_words(WordScope::key, {}), ", ")));
      }
      out().push_back({PageNode::Kind::word, std::string(inner), i, {}, {}});
    } else if (inner[0] == '#') {
      std::string what(inner.substr(1));
      if (what == "sm" || what == "target" || what == "missing") {
        if (what == "target" && !inside(stack, "sm"))
          throw PageTemplateError(i, "'{#target}' stands outside a {#sm} block");
        if (inside(stack, what)) throw PageTemplateError(i, fmt::format("'{{#{}}}' inside another", what));
        stack.push_back({what, i, nullptr, {PageNode::Kind::block, what, i, {}, {}}});
      } else if (what.starts_with("if ")) {
        std::string cond = what.substr(3);
        if (std::find(std::begin(kPageConditions), std::end(kPageConditions), cond) == std::end(kPageConditions))
          throw PageTemplateError(
              i, fmt::format("'{}' is no condition (conditions: {})", cond, fmt::join(kPageConditions, ", ")));
        if ((cond.ends_with("_only") && !inside(stack, "sm")) || (cond == "later" && !inside(stack, "missing")) ||
            (cond == "last" && !inside(stack, "sm") && !inside(stack, "missing")))
          throw PageTemplateError(i, fmt::format("'{{#if {}}}' stands outside the block it asks about", cond));
        // Rendering and freeing the nodes recurse: a bound, as the Nix parser has one.
        if (stack.size() >= kMaxPageNesting)
          throw PageTemplateError(i, fmt::format("'{{#if {}}}' nests blocks deeper than {}", cond, kMaxPageNesting));
        stack.push_back({"if", i, nullptr, {PageNode::Kind::cond, cond, i, {}, {}}});
      } else if (what == "else") {
        if (stack.empty() || stack.back().block != "if" || stack.back().in_else)
          throw PageTemplateError(i, "'{#else}' outside an {#if}");
        stack.back().in_else = true;
      } else {
        throw PageTemplateError(
            i, fmt::format("'{{{}}}' is no block (blocks: #sm, #target, #missing, #if, #else)", inner));
      }
    } else {
      std::string what(inner.substr(1));
      if (stack.empty() || stack.back().block != what)
        throw PageTemplateError(i,
                                fmt::format("'{{{}}}' closes no open block{}", inner,
                                            stack.empty() ? "" : " (the open one is {#" + stack.back().block + "})"));
      PageNode node = std::move(stack.back().node);
      stack.pop_back();
      out().push_back(std::move(node));
    }
    i = text_from = end;
  }
  add_text(t.substr(text_from), text_from);
  if (!stack.empty())
    throw PageTemplateError(stack.back().offset, fmt::format("'{{#{}}}' is never closed", stack.back().block));
  return top;
}

namespace {

double sm_number(const std::string& sm) { return std::strtod(sm.c_str(), nullptr); }

bool cuda_before(const KnowledgeBase& kb, const std::string& a, const std::string& b) {
  const CudaToolkit* x = kb.cuda(a);
  const CudaToolkit* y = kb.cuda(b);
  return x && y ? x->version < y->version : a < b;
}

}  // namespace

std::pair<std::string, std::string> sm_cuda_range(const Matrix& m, const KnowledgeBase& kb, const std::string& package,
                                                  const std::string& sm) {
  std::string first, last;
  for (const auto& v : m.variants) {
    if (v.package != package || v.sm != sm || v.cuda.empty()) continue;
    if (first.empty() || cuda_before(kb, v.cuda, first)) first = v.cuda;
    if (last.empty() || cuda_before(kb, last, v.cuda)) last = v.cuda;
  }
  return {first, last};
}

namespace {

// The words of \a c: its facts derived as the word table's cell scope says. \a has_floor:
// whether the driver rule gives its first variant a floor.
void cell_words(PageCell& c, bool has_floor, const Spec& spec, const KnowledgeBase& kb) {
  std::optional<std::string> driver;
  // A page's floor serves every GPU of its sections (kb/driver_rule.hpp).
  if (const CudaToolkit* t = kb.cuda(c.cuda); t && has_floor) {
    std::vector<const GpuArch*> gpus;
    for (const auto& s : c.sms)
      if (const GpuArch* g = kb.gpu(s.sm)) gpus.push_back(g);
    driver = written_driver(spec, *t, gpus).value_or("");
  }
  auto facts = [&](const TemplateWord& w) -> std::optional<std::string> {
    switch (w.fact) {
      case WordFact::version: return c.version.empty() ? std::nullopt : std::optional(c.version);
      case WordFact::cuda: return c.cuda;
      case WordFact::driver: return driver;
      case WordFact::python: return c.pythons.size() == 1 ? std::optional(c.pythons[0]) : std::nullopt;
      case WordFact::pythons: return fmt::format("{}", fmt::join(c.pythons, ", "));
      default: return std::nullopt;
    }
  };
  for (auto& [word, value] : scope_values(WordScope::cell, facts, c.paired)) c.words[word] = value;
}

}  // namespace

std::vector<std::string> PageCell::paired_attributes() const {
  std::vector<std::string> out;
  for (const auto& [attribute, version] : paired) out.push_back(attribute);
  return out;
}

std::vector<PageCell> page_cells(const Spec& spec, const Matrix& m, const KnowledgeBase& kb) {
  std::vector<PageCell> cells;
  std::vector<bool> has_floor;
  for (const auto& v : m.variants) {
    if (v.cuda.empty() || v.sm.empty() || !v.sm_set.empty()) continue;
    auto c = std::find_if(cells.begin(), cells.end(), [&](const PageCell& x) {
      return x.package == v.package && x.version == v.version && x.cuda == v.cuda;
    });
    if (c == cells.end()) {
      cells.push_back({v.package, v.version, v.cuda, {}, {}, {}, {}, variant_paired(v, kb)});
      has_floor.push_back(variant_driver(v, spec, kb).has_value());
      c = cells.end() - 1;
    }
    if (!v.python.empty() && std::find(c->pythons.begin(), c->pythons.end(), v.python) == c->pythons.end())
      c->pythons.push_back(v.python);
    auto s = std::find_if(c->sms.begin(), c->sms.end(), [&](const PageSm& x) { return x.sm == v.sm; });
    if (s == c->sms.end()) {
      c->sms.push_back({v.sm, {}});
      s = c->sms.end() - 1;
    }
    std::string arch = v.platform.substr(0, v.platform.find('-'));
    if (std::none_of(s->targets.begin(), s->targets.end(),
                     [&](const PageTarget& t) { return t.isa == v.isa && t.arch == arch; }))
      s->targets.push_back({v.isa, arch});
  }
  for (size_t k = 0; k < cells.size(); ++k) {
    PageCell& c = cells[k];
    std::sort(c.sms.begin(), c.sms.end(),
              [](const PageSm& a, const PageSm& b) { return sm_number(a.sm) < sm_number(b.sm); });
    cell_words(c, has_floor[k], spec, kb);
    std::set<std::string> all;
    for (const auto& v : m.variants)
      if (v.package == c.package && v.version == c.version && !v.cuda.empty() && !v.sm.empty() && v.sm_set.empty())
        all.insert(v.sm);
    for (const auto& sm : all)
      if (std::none_of(c.sms.begin(), c.sms.end(), [&](const PageSm& s) { return s.sm == sm; }))
        c.missing.push_back(sm);
    std::sort(c.missing.begin(), c.missing.end(),
              [](const std::string& a, const std::string& b) { return sm_number(a) < sm_number(b); });
  }
  return cells;
}

namespace {

struct Renderer {
  std::string_view path;
  const PageCell& cell;
  const Spec& spec;
  const Matrix& m;
  const KnowledgeBase& kb;
  const TeamFacts* team;
  WordQuoter* quoter;
  const PageSm* sm = nullptr;
  const PageTarget* target = nullptr;
  const std::string* missing = nullptr;
  bool last = false;

  std::optional<std::string> team_fact(const std::string& key) const {
    if (!team) return std::nullopt;
    auto it = team->find(key);
    return it == team->end() ? std::nullopt : std::optional<std::string>(it->second);
  }
  std::optional<std::string> gpu_names(const std::string& s, const std::string& arch) const {
    if (auto t = team_fact("gpu_names@" + s + " " + arch)) return t;
    if (auto t = team_fact("gpu_names@" + s)) return t;
    return key_gpu_names(spec, kb, s + " " + arch);
  }
  std::optional<std::string> arch_name(const std::string& s) const {
    if (auto t = team_fact("arch_name@" + s)) return t;
    return tailor::arch_name(spec, kb, s);
  }

  // The facts of an SM the cell builds or lacks.
  std::optional<std::string> sm_fact(const TemplateWord& w, const std::string& s, bool built) const {
    switch (w.fact) {
      case WordFact::sm: return s;
      case WordFact::arch_name: return arch_name(s);
      case WordFact::gpu_names:
        return gpu_names(s, built && !sm->targets.empty() ? sm->targets.front().arch : "x86_64");
      case WordFact::first_cuda:
      case WordFact::last_cuda: {
        auto [first, last] = sm_cuda_range(m, kb, cell.package, s);
        const std::string& c = w.fact == WordFact::first_cuda ? first : last;
        return c.empty() ? std::nullopt : std::optional(c);
      }
      default: return std::nullopt;
    }
  }
  // The facts of a CPU target of the SM.
  std::optional<std::string> target_fact(const TemplateWord& w) const {
    switch (w.fact) {
      case WordFact::isa: return target->isa;
      case WordFact::arch: return target->arch;
      case WordFact::isa_display: {
        const CpuIsa* i = kb.isa(target->isa);
        return i ? std::optional<std::string>(i->display) : std::nullopt;
      }
      case WordFact::gpu_names: return gpu_names(sm->sm, target->arch);
      case WordFact::target_text: return target_text(spec, target->isa, w.name);
      default: return std::nullopt;
    }
  }

  std::optional<std::string> value(const std::string& name, const std::string& level) const {
    std::optional<WordScope> scope = page_scope(level);
    if (scope == WordScope::cell) {
      const TemplateWord* w = find_word(WordScope::cell, name, {});
      if (w && w->fact == WordFact::driver)
        if (auto t = team_fact("driver@" + cell.cuda)) return t;
      auto it = cell.words.find(name);
      return it == cell.words.end() ? std::nullopt : std::optional<std::string>(it->second);
    }
    if (scope == WordScope::sm || scope == WordScope::missing) {
      const std::string& s = scope == WordScope::sm ? sm->sm : *missing;
      return word_value(*scope, name, [&](const TemplateWord& w) { return sm_fact(w, s, scope == WordScope::sm); });
    }
    if (scope == WordScope::target)
      return word_value(*scope, name, [&](const TemplateWord& w) { return target_fact(w); });
    // A table word: its key is an SM or a CUDA.
    if (auto t = team_fact(name + "@" + level)) return t;
    return table_word(name, level, spec, m, kb);
  }

  bool holds(const std::string& cond) const {
    if (cond == "missing") return !cell.missing.empty();
    if (cond == "last") return last;
    if (cond == "aarch64_only" || cond == "x86_64_only") {
      std::set<std::string> cell_archs, sm_archs;
      for (const auto& s : cell.sms)
        for (const auto& t : s.targets) cell_archs.insert(t.arch);
      for (const auto& t : sm->targets) sm_archs.insert(t.arch);
      return cell_archs.size() > 1 && sm_archs == std::set<std::string>{cond.substr(0, cond.size() - 5)};
    }
    // later: the cell's CUDA is after the last the matrix builds the missing SM with.
    auto [first, last_cuda] = sm_cuda_range(m, kb, cell.package, *missing);
    return !last_cuda.empty() && cuda_before(kb, last_cuda, cell.cuda);
  }

  void run(const std::vector<PageNode>& nodes) {
    for (const auto& n : nodes) {
      switch (n.kind) {
        case PageNode::Kind::text: quoter->text(n.text); break;
        case PageNode::Kind::word: {
          size_t at = n.text.find('@');
          auto v = value(n.text.substr(0, at), n.text.substr(at + 1));
          if (!v) {
            Diagnostic d;
            d.message = fmt::format("[layout.pages] {}: {{{}}} has no value for the cell {} {} with CUDA {}", path,
                                    n.text, cell.package, cell.version, cell.cuda);
            d.hint = "a target's text comes from [layout.targets]; python and python_nodot need a cell of one Python";
            throw DiagnosticError(d);
          }
          quoter->word(*v, fmt::format("[layout.pages] {}: {{{}}}", path, n.text));
          break;
        }
        case PageNode::Kind::cond: run(holds(n.text) ? n.body : n.otherwise); break;
        case PageNode::Kind::block: {
          Renderer inner = *this;
          if (n.text == "sm") {
            for (size_t i = 0; i < cell.sms.size(); ++i) {
              inner.sm = &cell.sms[i], inner.last = i + 1 == cell.sms.size();
              inner.run(n.body);
            }
          } else if (n.text == "target") {
            for (size_t i = 0; i < sm->targets.size(); ++i) {
              inner.target = &sm->targets[i], inner.last = i + 1 == sm->targets.size();
              inner.run(n.body);
            }
          } else {
            for (size_t i = 0; i < cell.missing.size(); ++i) {
              inner.missing = &cell.missing[i], inner.last = i + 1 == cell.missing.size();
              inner.run(n.body);
            }
          }
          break;
        }
      }
    }
  }
};

}  // namespace

std::string render_page(std::string_view path, const std::vector<PageNode>& nodes, const PageCell& cell,
                        const Spec& spec, const Matrix& m, const KnowledgeBase& kb, const TeamFacts* team) {
  WordQuoter quoter(language_of(path));
  Renderer r{path, cell, spec, m, kb, team, &quoter};
  r.run(nodes);
  return quoter.finish();
}

std::optional<std::string> page_path(std::string_view path_tmpl, const PageCell& cell) {
  return fill(template_pieces(path_tmpl), [&](const std::string& word) -> std::optional<std::string> {
    auto it = cell.words.find(word);
    return it == cell.words.end() ? std::nullopt : std::optional<std::string>(it->second);
  });
}

}  // namespace tailor
