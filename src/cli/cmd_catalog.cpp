// tailor catalog [SPEC...] -o DIR [--org ORG] [--json]: one self-contained HTML
// page where a user picks a machine and reads the variant to install, with
// every answer precomputed by recommend's own code; pages of at most 300 kB
// and an index that links them where one page would weigh more.
#include <filesystem>
#include <ostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "catalog/catalog_pages.hpp"
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
  std::vector<CatalogPageFile> pages = render_catalog_pages(std::move(specs), kb, org);
  std::filesystem::create_directories(dir);
  auto path_of = [&](const CatalogPageFile& f) { return (std::filesystem::path(dir) / f.name).string(); };
  for (const auto& f : pages) write_file_atomically(path_of(f), f.html);
  const CatalogPageFile& first = pages.front();
  if (pages.size() == 1) {  // one page: as it always was
    if (json) {
      ctx.out << json_text(nlohmann::ordered_json{{"page", path_of(first)},
                                                  {"specs", first.specs.size()},
                                                  {"variants", variants},
                                                  {"answers", first.answers},
                                                  {"bytes", first.html.size()}});
      return kExitOk;
    }
    ctx.out << fmt::format("{}: {} variants of {} spec{}, {} distinct answers, {} bytes\n", path_of(first), variants,
                           first.specs.size(), first.specs.size() == 1 ? "" : "s", first.answers, first.html.size());
    return kExitOk;
  }
  if (json) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (size_t i = 1; i < pages.size(); ++i)
      list.push_back({{"page", path_of(pages[i])},
                      {"specs", pages[i].specs.size()},
                      {"variants", pages[i].variants},
                      {"answers", pages[i].answers},
                      {"bytes", pages[i].html.size()}});
    ctx.out << json_text(nlohmann::ordered_json{{"page", path_of(first)},
                                                {"specs", spec_args.size()},
                                                {"variants", variants},
                                                {"bytes", first.html.size()},
                                                {"pages", list}});
    return kExitOk;
  }
  for (size_t i = 1; i < pages.size(); ++i)
    ctx.out << fmt::format("{}: {} variants of {} spec{}, {} distinct answers, {} bytes\n", path_of(pages[i]),
                           pages[i].variants, pages[i].specs.size(), pages[i].specs.size() == 1 ? "" : "s",
                           pages[i].answers, pages[i].html.size());
  ctx.out << fmt::format("{}: links the {} pages, {} bytes\n", path_of(first), pages.size() - 1, first.html.size());
  return kExitOk;
}

}  // namespace tailor
