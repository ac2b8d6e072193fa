#include "lint/linter.hpp"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "lint/checks.hpp"

namespace tailor::lint {

namespace {

const char* severity_text(Severity s) { return s == Severity::error ? "error" : s == Severity::warning ? "warning" : "note"; }

}  // namespace

CheckResult check_files(const std::string& root, std::vector<SourceFile> files, const KnowledgeBase& kb) {
  CheckResult r;
  LintTree t = make_tree(root, std::move(files), kb, r.problems);
  Sink sink(r.problems);
  for (auto* check : {check_names, check_pins, check_python, check_targets, check_workarounds, check_text,
                      check_imports, check_docs})
    check(t, kb, sink);
  for (const auto& f : t.nix)
    for (const auto& u : f.unknown_ignores)
      sink.add(f, "TLR025", u.span, fmt::format("'tailor: ignore {}' names no rule", u.text),
               "run 'tailor check --rules' for the codes");
  r.files = static_cast<int>(t.nix.size());
  std::stable_sort(r.problems.begin(), r.problems.end(), [](const Problem& a, const Problem& b) {
    return std::tie(a.path, a.pos.line, a.pos.column, a.rule->code) < std::tie(b.path, b.pos.line, b.pos.column, b.rule->code);
  });
  for (const auto& p : r.problems) (p.rule->severity == Severity::error ? r.errors : r.warnings)++;
  return r;
}

CheckResult check_tree(const std::string& dir, const KnowledgeBase& kb) {
  return check_files(dir, read_tree(dir), kb);
}

std::string render_text(const CheckResult& r) {
  std::string out;
  for (const auto& p : r.problems) out += p.render();
  if (r.problems.empty())
    out += fmt::format("checked {} file{}: no problems\n", r.files, r.files == 1 ? "" : "s");
  else
    out += fmt::format("checked {} file{}: {} error{}, {} warning{}\n", r.files, r.files == 1 ? "" : "s", r.errors,
                       r.errors == 1 ? "" : "s", r.warnings, r.warnings == 1 ? "" : "s");
  return out;
}

std::string render_json(const CheckResult& r) {
  nlohmann::ordered_json problems = nlohmann::ordered_json::array();
  for (const auto& p : r.problems) {
    nlohmann::ordered_json j;
    j["path"] = p.path;
    j["line"] = p.pos.line;
    j["column"] = p.pos.column;
    j["code"] = p.rule->code;
    j["severity"] = severity_text(p.rule->severity);
    j["message"] = p.message;
    j["hint"] = p.hint;
    if (!p.notes.empty()) j["notes"] = p.notes;
    problems.push_back(std::move(j));
  }
  nlohmann::ordered_json j;
  j["problems"] = std::move(problems);
  j["files"] = r.files;
  // Replacement instead of throwing: file names and texts need not be UTF-8.
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::string render_rules() {
  std::string out;
  for (const auto& r : rules())
    out += fmt::format("{}  {:<7}  {:<20}  {}\n", r.code, severity_text(r.severity), r.name, r.summary);
  return out;
}

}  // namespace tailor::lint
