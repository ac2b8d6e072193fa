// tailor explain NAME [--spec SPEC] [--json] [--why-not]: the derived build
// settings of one variant and the fact behind each, or why a name is absent.
#include <algorithm>
#include <ostream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/session.hpp"
#include "matrix/expand.hpp"
#include "matrix/rules.hpp"
#include "matrix/spec_loader.hpp"
#include "matrix/why_not.hpp"
#include "recipe/spelled_name.hpp"
#include "settings/build_settings.hpp"
#include "settings/settings_json.hpp"
#include "util/edit_distance.hpp"
#include "util/exit_status.hpp"
#include "util/json_text.hpp"

namespace tailor {

namespace {

void print_settings(const BuildSettings& s, const Spec& spec, std::ostream& out) {
  out << s.variant.name << "\n";
  out << fmt::format("  family '{}' of {} (branch {})\n", s.variant.family, spec.path, spec.name);
  // Grouped, groups in the order they were first decided.
  std::vector<std::string> groups;
  for (const auto& e : s.trail)
    if (std::find(groups.begin(), groups.end(), e.group) == groups.end()) groups.push_back(e.group);
  for (const auto& group : groups) {
    out << "\n" << group << "\n";
    for (const auto& e : s.trail) {
      if (e.group != group) continue;
      out << "  " << e.key;
      if (!e.value.empty()) out << ": " << e.value;
      out << "\n      because " << e.because << "\n";
    }
  }
  out << "\nheader comment\n";
  for (const auto& l : s.header_comment) out << "  # " << l << "\n";
  out << "\nlongDescription\n";
  size_t start = 0;
  while (start < s.long_description.size()) {
    size_t nl = s.long_description.find('\n', start);
    out << "  " << s.long_description.substr(start, nl - start) << "\n";
    start = nl + 1;
  }
}

// The name read as a variant, with the spec's SM set names ("…-cuda12_9-all-avx2") too.
std::optional<Variant> read_name(const std::string& name, const Spec& spec, const KnowledgeBase& kb,
                                 std::string& problem) {
  auto parsed = parse_variant_name(name, kb, problem);
  for (const auto& f : spec.families)
    for (const auto& set : f.sm_sets) {
      if (parsed) return parsed;
      std::vector<std::string> sms;
      for (const auto& sm : set.sms) sms.push_back(sm.value);
      if (auto v = recipe::parse_set_name(name, sms, kb); v && v->sm == set.name) parsed = v;
    }
  return parsed;
}

int print_why_not(const std::string& name, const Spec& spec, const Matrix& m, const KnowledgeBase& kb,
                  std::ostream& out, std::ostream& err) {
  std::string problem;
  const WhyNot w = why_not(name, read_name(name, spec, kb, problem), spec, m, kb);
  switch (w.kind) {
    case WhyNot::Kind::in_matrix:
      out << fmt::format("{} is in the matrix of {} (family '{}')\n", name, spec.path, w.family);
      return kExitOk;
    case WhyNot::Kind::dropped:
      out << fmt::format("{} is not in the matrix of {}:\n", name, spec.path);
      for (const DroppedCell* d : w.drops) {
        if (d->policy && d->pos.line > 0)
          out << fmt::format("  family '{}': excluded by policy ({}:{}): {}\n", d->candidate.family, spec.path,
                             d->pos.line, d->reason);
        else if (d->policy)
          out << fmt::format("  family '{}': {}\n", d->candidate.family, d->reason);
        else
          out << fmt::format("  family '{}': dropped by rule {}: {}\n", d->candidate.family, d->rule, d->reason);
      }
      return kExitOk;
    case WhyNot::Kind::absent:
      out << fmt::format("{} is not in the matrix of {}:\n", name, spec.path);
      for (const auto& r : w.reasons) out << "  " << r << "\n";
      if (w.closest) out << fmt::format("  did you mean '{}'?\n", *w.closest);
      return kExitOk;
    case WhyNot::Kind::not_a_name: break;
  }
  Diagnostic d;
  d.message = fmt::format("'{}' is not a variant name: {}", name, problem);
  d.hint = did_you_mean(name, all_names(m));
  err << d.render();
  return kExitBadInput;
}

struct ExplainRun final : CommandRun {
  std::string name, spec_arg = kDefaultSpec;
  bool json = false, why = false;

  void define(CLI::App& app) override {
    app.description("Show the derived build settings of one variant, and the fact behind each.");
    app.add_option("NAME", name, "variant name, e.g. pytorch-python313-cuda12_9-sm90-avx512")->required();
    app.add_option("--spec", spec_arg, "spec file or built-in spec (default: build-pytorch/main)");
    app.add_flag("--json", json, "print JSON");
    app.add_flag("--why-not", why, "explain why NAME is not in the matrix");
  }
  std::vector<std::string> specs() override { return {spec_arg}; }
  int run(Session& s) override;
};

int ExplainRun::run(Session& s) {
  const KnowledgeBase& kb = s.facts();
  const auto& [spec, m] = s.matrix(spec_arg);
  if (why) return print_why_not(name, spec, m, kb, s.out, s.err);

  const Variant* v = m.find(name);
  if (!v) {
    Diagnostic d;
    d.message = fmt::format("{} is not in the matrix of {}", name, spec.path);
    d.hint = did_you_mean(name, all_names(m));
    if (d.hint.empty()) d.hint = fmt::format("'tailor explain --why-not {} --spec {}' says why", name, spec_arg);
    s.err << d.render();
    return kExitBadInput;
  }
  BuildSettings settings = derive_settings(*v, spec, m, kb);
  if (json)
    s.out << json_text(to_json(settings, kb));
  else
    print_settings(settings, spec, s.out);
  return kExitOk;
}

}  // namespace

std::unique_ptr<CommandRun> make_explain() { return std::make_unique<ExplainRun>(); }

}  // namespace tailor
