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
#include "cli/options.hpp"
#include "cli/session.hpp"
#include "inspect/inspection.hpp"
#include "matrix/expand.hpp"
#include "matrix/spec_loader.hpp"
#include "settings/build_settings.hpp"
#include "util/diagnostic.hpp"
#include "util/edit_distance.hpp"
#include "util/exit_status.hpp"
#include "util/file_error.hpp"
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

struct VerifyRun final : CommandRun {
  std::string path, variant, variant_file, spec_arg = kDefaultSpec, python;
  bool json = false, no_run = false;

  void define(CLI::App& app) override;
  Input input() override { return {path}; }
  std::vector<std::string> specs() override;
  int run(Session& s) override;
  VariantPromise promise(Session& s) const;
  void print_text(Session& s, const VariantPromise& promise, const std::vector<Check>& checks) const;
};

void VerifyRun::define(CLI::App& app) {
  app.description("Check a built artifact against what its variant promises.");
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
}

// The spec is read only for --variant.
std::vector<std::string> VerifyRun::specs() {
  if (variant.empty()) return {};
  return {spec_arg};
}

// What the artifact promises: --variant of the spec, --variant-json, or its own record.
VariantPromise VerifyRun::promise(Session& s) const {
  const KnowledgeBase& kb = s.facts();
  std::error_code ec;
  fs::path variant_json = fs::path(path) / kVariantJsonPath;
  if (!variant.empty()) {
    const auto& [spec, m] = s.matrix(spec_arg);
    return promise_of(derive_settings(m.require(variant, spec.path), spec, m, kb), kb, spec.path);
  }
  if (!variant_file.empty()) {
    // Anything else is the input reader's to refuse, by what it is.
    if (!fs::exists(variant_file, ec)) throw_file_error(variant_file, "no such file");
    return read_variant_json(variant_file, read_text(variant_file), kb);
  }
  if (fs::is_regular_file(variant_json, ec))
    return read_variant_json(variant_json.string(), read_text(variant_json), kb);
  throw_file_error(path, fmt::format("verify: no {} here, so the variant is unknown", kVariantJsonPath),
                   "name it: tailor verify PATH --variant NAME [--spec SPEC], or --variant-json FILE");
}

void VerifyRun::print_text(Session& s, const VariantPromise& p, const std::vector<Check>& checks) const {
  s.out << fmt::format("{}: verifying as {} (from {})\n", path, p.name, p.source);
  size_t width = 0;
  for (const auto& c : checks) width = std::max(width, c.name.size());
  for (const auto& c : checks)
    s.out << fmt::format("{:<7}  {:<{}}  {}\n", check_status_name(c.status), c.name, width, c.detail);
  size_t failed = 0, skipped = 0;
  for (const auto& c : checks) {
    failed += c.status == CheckStatus::failed;
    skipped += c.status == CheckStatus::skipped;
  }
  s.out << fmt::format("{}: {} checks, {} failed, {} skipped\n", all_passed(checks) ? "ok" : "FAILED", checks.size(),
                       failed, skipped);
}

int VerifyRun::run(Session& s) {
  // One knowledge base for the promise and every check (--kb overlays it).
  const KnowledgeBase& kb = s.facts();
  VariantPromise p = promise(s);
  Inspection in = inspect_path(s.artifact());
  std::vector<Check> checks = static_checks(kb, p, in, path);
  if (no_run)
    checks.push_back({"python", CheckStatus::skipped, "--static: no Python run"});
  else
    for (auto& c : runtime_checks(kb, p, in, path, python)) checks.push_back(std::move(c));
  bool ok = all_passed(checks);
  if (json) {
    auto j = to_json(checks);
    nlohmann::ordered_json out = {{"ok", ok}, {"path", path}, {"variant", p.name}, {"source", p.source}};
    out["checks"] = j["checks"];
    s.out << json_text(out);
  } else {
    print_text(s, p, checks);
  }
  return ok ? kExitOk : kExitProblems;
}

}  // namespace

std::unique_ptr<CommandRun> make_verify() { return std::make_unique<VerifyRun>(); }

}  // namespace tailor
