#include "lint/findings.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <sstream>

#include <fmt/format.h>

#include "util/parallel_for.hpp"

namespace tailor::lint {

using recipe::display_path;

std::string Problem::render() const {
  Diagnostic d;
  d.severity = rule->severity;
  d.path = path;
  d.pos = pos;
  d.line_text = line_text;
  d.message = fmt::format("{} [{}]", message, rule->code);
  d.hint = hint;
  d.notes = notes;
  return d.render();
}

namespace {

/// What the `# tailor: ignore TLR005, pin-unknown` comments among \a comments say:
/// the rules they silence, and codes naming none.
Ignores read_ignores(const std::vector<Fact>& comments) {
  Ignores out;
  for (const Fact& c : comments) {
    size_t at = c.text.find("tailor:");
    if (at == std::string::npos) continue;
    std::istringstream words(c.text.substr(at + 7));
    std::string w;
    if (!(words >> w) || w != "ignore") continue;
    while (words >> w) {
      while (!w.empty() && w.back() == ',') w.pop_back();
      if (w.empty()) continue;
      bool code_like = w.size() > 3 && w.starts_with("TLR") && std::all_of(w.begin() + 3, w.end(), [](char ch) {
                         return std::isdigit(static_cast<unsigned char>(ch));
                       });
      if (const Rule* rl = find_rule(w))
        out.codes.insert(std::string(rl->code));
      else if (code_like)
        out.unknown.push_back({w, w, c.span});
      else
        break;  // the reason that follows the codes
    }
  }
  return out;
}

}  // namespace

const Ignores& LintTree::ignores_of(const NixFile& f) const {
  static const Ignores none;
  std::less<const NixFile*> before;  // a total order, also for a file of another tree
  if (nix.size() != ignores.size() || before(&f, nix.data()) || !before(&f, nix.data() + nix.size())) return none;
  return ignores[static_cast<size_t>(&f - nix.data())];
}

LintTree make_tree(std::string root, std::vector<SourceFile> files, const KnowledgeBase& kb,
                   std::vector<Problem>& problems, const std::filesystem::path& read_from) {
  LintTree t;
  static_cast<RecipeTree&>(t) = recipe::make_tree(std::move(root), std::move(files), kb, read_from);
  t.ignores.resize(t.nix.size());
  parallel_for(t.nix.size(), 64, [&](size_t i) { t.ignores[i] = read_ignores(t.nix[i].comments()); });
  for (size_t i = 0; i < t.nix.size(); ++i) {
    const NixFile& n = t.nix[i];
    if (!n.syntax_error || t.ignores[i].codes.count("TLR001")) continue;
    const Diagnostic& e = *n.syntax_error;
    Problem p;
    p.rule = &rule("TLR001");
    p.path = n.display;
    p.rel = n.src.rel;
    p.pos = e.pos;
    p.line_text = e.line_text;
    p.message = e.message;
    p.hint = e.hint;
    p.notes = e.notes;
    problems.push_back(std::move(p));
  }
  return t;
}

Problem& Sink::add(const NixFile& file, std::string_view code, const nix::Span& span, std::string message,
                   std::string hint) {
  const Rule& r = rule(code);
  if (tree_.ignores_of(file).codes.count(std::string(r.code))) return discarded_ = Problem{};
  Problem p;
  p.rule = &r;
  p.path = file.display;
  p.rel = file.src.rel;
  // A problem of the whole file points at its first line: editors and CI annotations need one.
  p.pos = span.line > 0 ? Pos{span.line, span.column} : Pos{1, 1};
  p.line_text = line_text(file.text(), p.pos.line);
  p.message = std::move(message);
  p.hint = std::move(hint);
  out_.push_back(std::move(p));
  return out_.back();
}

Problem& Sink::add_doc(const LintTree& tree, const SourceFile& doc, std::string_view code, int line, int column,
                       std::string message, std::string hint) {
  Problem p;
  p.rule = &rule(code);
  p.path = display_path(tree.root, doc.rel);
  p.rel = doc.rel;
  p.pos = {line, column};
  if (line > 0) p.line_text = line_text(doc.text, line);
  p.message = std::move(message);
  p.hint = std::move(hint);
  out_.push_back(std::move(p));
  return out_.back();
}

std::string Sink::line_text(const std::string& text, int line) {
  auto it = lines_.find(&text);
  if (it == lines_.end()) it = lines_.emplace(&text, LineIndex(text)).first;
  return std::string(it->second.line(line));
}

nix::Span name_span(const NixFile& f) {
  if (!f.facts.names.empty()) return f.facts.names.front().span;
  return {};
}

}  // namespace tailor::lint
