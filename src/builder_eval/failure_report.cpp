#include "builder_eval/failure_report.hpp"

#include <fstream>
#include <map>
#include <tuple>

#include <fmt/format.h>

namespace tailor::builder_eval {

namespace fs = std::filesystem;

namespace {

std::string line_at(const fs::path& file, int line) {
  std::ifstream in(file, std::ios::binary);
  std::string l;
  for (int i = 0; i < line && std::getline(in, l); ++i) {}
  return in ? l : std::string();
}

std::string shown(const std::string& root, const std::string& rel) { return root + "/" + rel; }

}  // namespace

std::vector<FailureDiagnostic> failure_diagnostics(const WrapperEval& e, const fs::path& root,
                                                   const std::string& shown_root) {
  // By where the builder stopped and why, in the order first met.
  using Key = std::tuple<std::string, int, int, std::string>;
  std::map<Key, std::vector<const WrapperFailure*>> groups;
  std::vector<Key> order;
  for (const auto& f : e.failures) {
    Key k{f.error.file, f.error.line, f.error.column, f.error.message};
    if (!groups.count(k)) order.push_back(k);
    groups[k].push_back(&f);
  }
  std::vector<FailureDiagnostic> out;
  for (const auto& k : order) {
    const auto& stopped = groups[k];
    const WrapperFailure& first = *stopped.front();
    FailureDiagnostic fd;
    Diagnostic& d = fd.diagnostic;
    bool inside = !first.error.file.empty() && !fs::path(first.error.file).is_absolute();
    if (inside) {
      fd.rel = first.error.file;
      d.path = shown(shown_root, fd.rel);
      d.pos = {first.error.line, first.error.column};
      d.line_text = line_at(root / fd.rel, first.error.line);
    } else if (!first.wrapper.empty()) {
      fd.rel = first.wrapper;
      d.path = shown(shown_root, fd.rel);
    } else {
      d.path = shown_root;
    }
    std::string what = first.wrapper.empty() ? std::string("the evaluation stopped before any wrapper")
                       : stopped.size() == 1
                           ? fmt::format("the tree's builder cannot build {}", first.wrapper)
                           : fmt::format("the tree's builder cannot build {} wrappers", stopped.size());
    std::string where = !inside && !first.error.file.empty()
                            ? fmt::format(" (at {}:{}:{})", first.error.file, first.error.line, first.error.column)
                            : "";
    d.message = fmt::format("{}: {}{}", what,
                            first.error.message.empty() ? "nix-instantiate failed" : first.error.message, where);
    if (first.lacks) {
      d.message += fmt::format(": the table {} lacks \"{}\"", first.lacks->table, first.lacks->attribute);
      d.hint = fmt::format("add \"{}\" to {} (the builder looks every wrapper up there)", first.lacks->attribute,
                           first.lacks->table);
    }
    if (stopped.size() > 1)
      for (const auto* f : stopped) d.notes.push_back(fmt::format("wrapper {}", f->wrapper));
    size_t alike = 0;
    for (const auto* f : stopped) alike += f->alike.size();
    if (alike)
      d.notes.push_back(fmt::format("{} more wrapper{} passing the same {} {} not evaluated: {} the same lookup", alike,
                                    alike == 1 ? "" : "s", first.shared, alike == 1 ? "was" : "were",
                                    alike == 1 ? "it reaches" : "they reach"));
    if (!first.error.hint.empty()) d.notes.push_back(fmt::format("Nix: {}", first.error.hint));
    out.push_back(std::move(fd));
  }
  return out;
}

std::string eval_summary(const WrapperEval& e, const EvalOptions& options) {
  std::string against =
      options.nixpkgs.empty() ? std::string("the stand-in nixpkgs") : fmt::format("nixpkgs at {}", options.nixpkgs);
  size_t alike = 0;
  for (const auto& f : e.failures) alike += f.alike.size();
  std::string rest;
  if (alike) rest += fmt::format(", {} not evaluated alike a failure", alike);
  if (e.not_evaluated > alike)
    rest += fmt::format(", {} not evaluated after the evaluation stopped", e.not_evaluated - alike);
  if (e.skipped)
    rest += fmt::format(", {} skipped (function{} of the package set: the caller's to evaluate)", e.skipped,
                        e.skipped == 1 ? "" : "s");
  return fmt::format("evaluated {} of {} wrapper{} through the tree's builder ({}){}", e.evaluated, e.wrappers,
                     e.wrappers == 1 ? "" : "s", against, rest);
}

}  // namespace tailor::builder_eval
