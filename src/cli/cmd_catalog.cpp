// tailor catalog [SPEC...] -o DIR [--org ORG] [--json]: one self-contained HTML
// page where a user picks a machine and reads the variant to install, with
// every answer precomputed by recommend's own code.
#include <filesystem>
#include <ostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "catalog/catalog_page.hpp"
#include "cli/command.hpp"
#include "cli/expanded_matrix.hpp"
#include "cli/options.hpp"
#include "matrix/spec_loader.hpp"
#include "util/atomic_write.hpp"
#include "util/exit_status.hpp"
#include "util/json_text.hpp"

namespace tailor {

int cmd_catalog(CommandContext& ctx) {
  CLI::App app{"Write a self-contained HTML page: pick a machine, get the variant (answers precomputed by recommend).",
               "catalog"};
  std::vector<std::string> spec_args;
  std::string dir, kb_dir, org = "flox";
  bool json = false;
  app.add_option("SPEC", spec_args, "spec files or built-in specs (default: build-pytorch/main)");
  app.add_option("-o,--output", dir, "directory to write index.html into")
      ->required()
      ->check(nonempty_check())
      ->type_name("DIR");
  app.add_option("--org", org, "the Flox organisation that publishes the builds (default: flox)")
      ->check(safe_name_check());
  app.add_flag("--json", json, "print what was written as one JSON object");
  add_kb_option(app, kb_dir);
  if (auto rc = parse_args(app, ctx)) return *rc;
  if (spec_args.empty()) spec_args.push_back(kDefaultSpec);

  KnowledgeBase kb = load_kb(kb_dir);
  std::vector<CatalogSpec> specs;
  size_t variants = 0;
  for (const auto& arg : spec_args) {
    Spec spec = load_spec_arg(arg, kb);
    Matrix m = expand_reporting(spec, kb, ctx.err);
    variants += m.variants.size();
    specs.push_back({std::move(spec), std::move(m)});
  }
  CatalogData data = build_catalog(std::move(specs), kb, org);
  std::string page = render_catalog_page(data, kb);
  std::filesystem::create_directories(dir);
  std::string path = (std::filesystem::path(dir) / "index.html").string();
  write_file_atomically(path, page);
  if (json) {
    nlohmann::ordered_json j{{"page", path},
                             {"specs", data.specs.size()},
                             {"variants", variants},
                             {"answers", data.answers.size()},
                             {"bytes", page.size()}};
    ctx.out << json_text(j);
    return kExitOk;
  }
  ctx.out << fmt::format("{}: {} variants of {} spec{}, {} distinct answers, {} bytes\n", path, variants,
                         data.specs.size(), data.specs.size() == 1 ? "" : "s", data.answers.size(), page.size());
  return kExitOk;
}

}  // namespace tailor
