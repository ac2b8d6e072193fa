// tailor matrix SPEC [--json] [--dropped]: expand a spec, one row per variant.
#include <map>
#include <ostream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/command.hpp"
#include "cli/expanded_matrix.hpp"
#include "cli/options.hpp"
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

}  // namespace

int cmd_matrix(CommandContext& ctx) {
  CLI::App app{"Expand a spec: one row per variant.", "matrix"};
  SpecArg spec_arg;
  bool json = false, dropped = false;
  std::string kb_dir;
  add_spec_arg(app, spec_arg, "spec file, or a built-in spec such as build-pytorch/main (default)");
  app.add_flag("--json", json, "print a JSON array of variants");
  app.add_flag("--dropped", dropped, "also list the combinations that were dropped, and why");
  add_kb_option(app, kb_dir);
  if (auto rc = parse_args(app, ctx)) return *rc;

  KnowledgeBase kb = load_kb(kb_dir);
  Spec spec = load_spec_arg(chosen_spec(spec_arg, "matrix", kDefaultSpec), kb);
  Matrix m = expand_reporting(spec, kb, ctx.err);

  if (json) {
    nlohmann::ordered_json variants = nlohmann::ordered_json::array();
    for (const auto& v : m.variants) variants.push_back(to_matrix_json(v, spec, kb));
    if (!dropped) {
      ctx.out << json_text(variants);
    } else {
      nlohmann::ordered_json d = nlohmann::ordered_json::array();
      for (const auto& x : m.dropped) d.push_back(to_json(x, spec, kb));
      ctx.out << json_text(nlohmann::ordered_json{{"variants", variants}, {"dropped", d}});
    }
    return kExitOk;
  }

  ctx.out << fmt::format("{}: branch {} ({})\n\n", spec.path, spec.name, spec.product);
  TextTable t({"name", "package", "python", "cuda", "sm", "isa", "platform", "pin"});
  for (const auto& v : m.variants)
    t.add_row(
        {v.name, v.package, or_dash(v.python), or_dash(v.cuda), or_dash(v.sm), or_dash(v.isa), v.platform, v.pin});
  ctx.out << t.render() << "\n" << count_line(m, kb);
  if (dropped && !m.dropped.empty()) {
    TextTable d({"dropped", "rule", "reason"});
    for (const auto& x : m.dropped) d.add_row({x.candidate.name, x.rule, x.reason});
    ctx.out << "\n" << d.render();
  }
  return kExitOk;
}

}  // namespace tailor
