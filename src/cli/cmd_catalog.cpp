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
#include "cli/options.hpp"
#include "cli/session.hpp"
#include "matrix/spec_loader.hpp"
#include "util/atomic_write.hpp"
#include "util/exit_status.hpp"
#include "util/json_text.hpp"

namespace tailor {

namespace {

struct CatalogRun final : CommandRun {
  std::vector<std::string> spec_args;
  std::string dir, org = "flox";
  bool json = false;

  void define(CLI::App& app) override;
  std::vector<std::string> specs() override {
    if (spec_args.empty()) spec_args.push_back(kDefaultSpec);
    return spec_args;
  }
  int run(Session& s) override;
  std::string path_of(const CatalogPageFile& f) const { return (std::filesystem::path(dir) / f.name).string(); }
  void report_one(Session& s, const CatalogPageFile& page, size_t variants) const;
  void report_many(Session& s, const std::vector<CatalogPageFile>& pages, size_t variants) const;
};

void CatalogRun::define(CLI::App& app) {
  app.description(
      "Write a self-contained HTML page: pick a machine, get the variant (answers precomputed by recommend).");
  app.add_option("SPEC", spec_args, "spec files or built-in specs (default: build-pytorch/main)");
  app.add_option("-o,--output", dir, "directory to write index.html into")
      ->required()
      ->check(nonempty_check())
      ->type_name("DIR");
  app.add_option("--org", org, "the Flox organisation that publishes the builds (default: flox)")
      ->check(safe_name_check());
  app.add_flag("--json", json, "print what was written as one JSON object");
}

// One page: as it always was.
void CatalogRun::report_one(Session& s, const CatalogPageFile& page, size_t variants) const {
  if (json) {
    s.out << json_text(nlohmann::ordered_json{{"page", path_of(page)},
                                              {"specs", page.specs.size()},
                                              {"variants", variants},
                                              {"answers", page.answers},
                                              {"bytes", page.html.size()}});
    return;
  }
  s.out << fmt::format("{}: {} variants of {} spec{}, {} distinct answers, {} bytes\n", path_of(page), variants,
                       page.specs.size(), page.specs.size() == 1 ? "" : "s", page.answers, page.html.size());
}

// An index and the pages it links.
void CatalogRun::report_many(Session& s, const std::vector<CatalogPageFile>& pages, size_t variants) const {
  const CatalogPageFile& first = pages.front();
  if (json) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (size_t i = 1; i < pages.size(); ++i)
      list.push_back({{"page", path_of(pages[i])},
                      {"specs", pages[i].specs.size()},
                      {"variants", pages[i].variants},
                      {"answers", pages[i].answers},
                      {"bytes", pages[i].html.size()}});
    s.out << json_text(nlohmann::ordered_json{{"page", path_of(first)},
                                              {"specs", spec_args.size()},
                                              {"variants", variants},
                                              {"bytes", first.html.size()},
                                              {"pages", list}});
    return;
  }
  for (size_t i = 1; i < pages.size(); ++i)
    s.out << fmt::format("{}: {} variants of {} spec{}, {} distinct answers, {} bytes\n", path_of(pages[i]),
                         pages[i].variants, pages[i].specs.size(), pages[i].specs.size() == 1 ? "" : "s",
                         pages[i].answers, pages[i].html.size());
  s.out << fmt::format("{}: links the {} pages, {} bytes\n", path_of(first), pages.size() - 1, first.html.size());
}

int CatalogRun::run(Session& s) {
  std::vector<CatalogSpec> specs;
  size_t variants = 0;
  for (const auto& arg : spec_args) {
    const auto& e = s.matrix(arg);
    variants += e.matrix.variants.size();
    specs.push_back({e.spec, e.matrix});
  }
  std::vector<CatalogPageFile> pages = render_catalog_pages(std::move(specs), s.facts(), s.hosts(), org);
  std::filesystem::create_directories(dir);
  for (const auto& f : pages) write_file_atomically(path_of(f), f.html);
  if (pages.size() == 1)
    report_one(s, pages.front(), variants);
  else
    report_many(s, pages, variants);
  return kExitOk;
}

}  // namespace

std::unique_ptr<CommandRun> make_catalog() { return std::make_unique<CatalogRun>(); }

}  // namespace tailor
