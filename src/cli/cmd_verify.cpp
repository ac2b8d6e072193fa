// tailor verify PATH [--variant NAME] [--spec SPEC] [--json]: check a built
// artifact against what its variant promises. Static checks read the
// binaries; dynamic ones run the artifact's own Python and skip, saying why,
// when this host lacks Python, torch or a GPU.
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/expanded_matrix.hpp"
#include "cli/options.hpp"
#include "inspect/inspection.hpp"
#include "matrix/expand.hpp"
#include "matrix/spec_loader.hpp"
#include "settings/build_settings.hpp"
#include "util/diagnostic.hpp"
#include "util/edit_distance.hpp"
#include "util/exit_status.hpp"
#include "util/json_text.hpp"
#include "util/read_file.hpp"
#include "verify/promise.hpp"
#include "verify/runtime_checks.hpp"
#include "verify/static_checks.hpp"

namespace tailor {

namespace {

namespace fs = std::filesystem;

// The one input reader: a regular file, size-capped (an unread FIFO or a huge file is refused).
std::string read_text(const fs::path& p) { return read_file(p, "the variant JSON"); }

VariantPromise promise_from_spec(const std::string& name, const std::string& spec_arg, const KnowledgeBase& kb,
                                 std::ostream& err) {
  Spec spec = load_spec_arg(spec_arg, kb);
  Matrix m = expand_reporting(spec, kb, err);
  const Variant& v = m.require(name, spec.path);
  return promise_of(derive_settings(v, spec, m, kb), kb, spec.path);
}

}  // namespace

int cmd_verify(CommandContext& ctx) {
  CLI::App app{"Check a built artifact against what its variant promises.", "verify"};
  std::string path, variant, variant_file, spec_arg = kDefaultSpec, python, kb_dir;
  bool json = false, no_run = false;
  app.add_option("PATH", path, "a Nix result, an installed torch (site-packages/torch) or a library")->required();
  app.add_option("--variant", variant,
                 "the variant the artifact was built as (default: its nix-support/tailor-variant.json)")
      ->type_name("NAME");
  app.add_option("--variant-json", variant_file, "read the promise from FILE (the keys of tailor matrix --json)")
      ->type_name("FILE");
  app.add_option("--spec", spec_arg, "spec that defines --variant (default: build-pytorch/main)");
  app.add_option("--python", python, "interpreter for the dynamic checks (default: the artifact's own)")
      ->type_name("PYTHON");
  app.add_flag("--static", no_run, "only the static checks: run no Python");
  app.add_flag("--json", json, "print JSON");
  add_kb_option(app, kb_dir);
  if (auto rc = parse_args(app, ctx)) return *rc;

  std::error_code ec;
  if (!fs::exists(path, ec)) {
    Diagnostic d;
    d.path = path;
    d.message = "no such file or directory";
    ctx.err << d.render();
    return kExitBadInput;
  }
  // One knowledge base for the promise and every check (--kb overlays it).
  const KnowledgeBase kb = load_kb(kb_dir);
  VariantPromise promise;
  fs::path variant_json = fs::path(path) / kVariantJsonPath;
  if (!variant.empty()) {
    promise = promise_from_spec(variant, spec_arg, kb, ctx.err);
  } else if (!variant_file.empty()) {
    if (!fs::exists(variant_file, ec)) {  // anything else is the input reader's to refuse, by what it is
      Diagnostic d;
      d.path = variant_file;
      d.message = "no such file";
      ctx.err << d.render();
      return kExitBadInput;
    }
    promise = read_variant_json(variant_file, read_text(variant_file), kb);
  } else if (fs::is_regular_file(variant_json, ec)) {
    promise = read_variant_json(variant_json.string(), read_text(variant_json), kb);
  } else {
    Diagnostic d;
    d.path = path;
    d.message = fmt::format("verify: no {} here, so the variant is unknown", kVariantJsonPath);
    d.hint = "name it: tailor verify PATH --variant NAME [--spec SPEC], or --variant-json FILE";
    ctx.err << d.render();
    return kExitBadInput;
  }

  Inspection in = inspect_path(path);
  std::vector<Check> checks = static_checks(kb, promise, in, path);
  if (no_run)
    checks.push_back({"python", CheckStatus::skipped, "--static: no Python run"});
  else
    for (auto& c : runtime_checks(kb, promise, in, path, python)) checks.push_back(std::move(c));

  bool ok = all_passed(checks);
  if (json) {
    auto j = to_json(checks);
    nlohmann::ordered_json out = {{"ok", ok}, {"path", path}, {"variant", promise.name}, {"source", promise.source}};
    out["checks"] = j["checks"];
    ctx.out << json_text(out);
  } else {
    ctx.out << fmt::format("{}: verifying as {} (from {})\n", path, promise.name, promise.source);
    size_t width = 0;
    for (const auto& c : checks) width = std::max(width, c.name.size());
    for (const auto& c : checks)
      ctx.out << fmt::format("{:<7}  {:<{}}  {}\n", check_status_name(c.status), c.name, width, c.detail);
    size_t failed = 0, skipped = 0;
    for (const auto& c : checks) {
      failed += c.status == CheckStatus::failed;
      skipped += c.status == CheckStatus::skipped;
    }
    ctx.out << fmt::format("{}: {} checks, {} failed, {} skipped\n", ok ? "ok" : "FAILED", checks.size(), failed,
                           skipped);
  }
  return ok ? kExitOk : kExitProblems;
}

}  // namespace tailor
