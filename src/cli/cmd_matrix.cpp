// tailor matrix SPEC [--json] [--dropped]: expand a spec, one row per variant.
#include <map>
#include <ostream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/session.hpp"
#include "matrix/expand.hpp"
#include "matrix/matrix_json.hpp"
#include "matrix/spec_loader.hpp"
#include "util/exit_status.hpp"
#include "util/json_text.hpp"
#include "util/text_table.hpp"

namespace tailor {

namespace {

std::string or_dash(const std::string& s) { return s.empty() ? "-" : s; }

std::string count_line(const Matrix& m, const KnowledgeBase& kb) {
  std::map<std::string, int> packages, backends;
  for (const auto& v : m.variants) {
    packages[v.package]++;
    backends[v.backend]++;
  }
  std::string out = fmt::format("{} variant{}:", m.variants.size(), m.variants.size() == 1 ? "" : "s");
  bool first = true;
  for (const std::string& p : kb.package_names())
    if (packages.count(p)) {
      out += fmt::format("{} {} {}", first ? "" : ",", packages[p], p);
      first = false;
    }
  std::vector<std::string> per_backend;
  for (const auto& b : kb.backends) per_backend.push_back(fmt::format("{} {}", backends[b.name], b.display));
  out += fmt::format(" ({})", fmt::join(per_backend, ", "));
  int policy = 0;
  for (const auto& d : m.dropped) policy += d.policy;
  out += fmt::format("; {} combination{} dropped ({} by facts, {} by policy)", m.dropped.size(),
                     m.dropped.size() == 1 ? "" : "s", m.dropped.size() - policy, policy);
  return out + "\n";
}

struct MatrixRun final : CommandRun {
  SpecArg spec_arg;
  std::string chosen;
  bool json = false, dropped = false;

  void define(CLI::App& app) override {
    app.description("Expand a spec: one row per variant.");
    add_spec_arg(app, spec_arg, "spec file, or a built-in spec such as build-pytorch/main (default)");
    app.add_flag("--json", json, "print a JSON array of variants");
    app.add_flag("--dropped", dropped, "also list the combinations that were dropped, and why");
  }
  std::vector<std::string> specs() override { return {chosen = chosen_spec(spec_arg, "matrix", kDefaultSpec)}; }
  int run(Session& s) override;
  void print_json(Session& s, const Spec& spec, const Matrix& m) const;
};

void MatrixRun::print_json(Session& s, const Spec& spec, const Matrix& m) const {
  const KnowledgeBase& kb = s.facts();
  nlohmann::ordered_json variants = nlohmann::ordered_json::array();
  for (const auto& v : m.variants) variants.push_back(to_matrix_json(v, spec, kb));
  if (!dropped) {
    s.out << json_text(variants);
    return;
  }
  nlohmann::ordered_json d = nlohmann::ordered_json::array();
  for (const auto& x : m.dropped) d.push_back(to_json(x, spec, kb));
  s.out << json_text(nlohmann::ordered_json{{"variants", variants}, {"dropped", d}});
}

int MatrixRun::run(Session& s) {
  const KnowledgeBase& kb = s.facts();
  const auto& [spec, m] = s.matrix(chosen);
  if (json) {
    print_json(s, spec, m);
    return kExitOk;
  }
  s.out << fmt::format("{}: branch {} ({})\n\n", spec.path, spec.name, spec.product);
  TextTable t({"name", "package", "python", "cuda", "sm", "isa", "platform", "pin"});
  for (const auto& v : m.variants)
    t.add_row(
        {v.name, v.package, or_dash(v.python), or_dash(v.cuda), or_dash(v.sm), or_dash(v.isa), v.platform, v.pin});
  s.out << t.render() << "\n" << count_line(m, kb);
  if (dropped && !m.dropped.empty()) {
    TextTable d({"dropped", "rule", "reason"});
    for (const auto& x : m.dropped) d.add_row({x.candidate.name, x.rule, x.reason});
    s.out << "\n" << d.render();
  }
  return kExitOk;
}

}  // namespace

std::unique_ptr<CommandRun> make_matrix() { return std::make_unique<MatrixRun>(); }

}  // namespace tailor
