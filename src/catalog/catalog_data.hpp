#pragma once
/// The catalog's answers, precomputed: for every combination the selector can
/// express, `recommend`'s own answer (variant, reasons, warnings,
/// alternatives, install and build commands, driver floor), deduplicated, and
/// the table of every variant. The page looks answers up; it decides nothing.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog_choices.hpp"
#include "host/host_tables.hpp"

namespace tailor {

struct CatalogAnswer {
  std::string variant;  ///< empty: nothing in the matrix runs on this host
  std::string install, build, driver_floor;
  std::vector<std::string> reasons, warnings;
  std::vector<std::pair<std::string, std::string>> alternatives;  ///< name, how it differs

  bool operator==(const CatalogAnswer&) const = default;
};

/// One selector combination; \a gpu indexes PlatformChoice::gpus (-1: none),
/// \a driver CatalogChoices::drivers.
struct CatalogQuery {
  size_t product = 0, python = 0, platform = 0, cpu = 0, driver = 0;
  int gpu = -1;
};

struct CatalogData {
  std::vector<CatalogSpec> specs;
  CatalogChoices choices;
  std::string org;
  const HostTables* hosts = nullptr;   ///< whole machines (a GPU with its CPU), the CPU feature commands
  std::vector<CatalogAnswer> answers;  ///< each distinct answer once
  /// Per driver choice, a run-length list: answer index, how many drivers in a row.
  std::vector<std::vector<std::pair<size_t, size_t>>> rows;
  /// [product][python][platform][(gpu + 1) * cpus + cpu] -> index into rows.
  std::vector<std::vector<std::vector<std::vector<size_t>>>> index;

  /// The answer the page shows for \a q.
  const CatalogAnswer& answer(const CatalogQuery& q) const;
};

/// Computes every answer with recommend(); \a org is the Flox organisation of
/// the install commands.
CatalogData build_catalog(std::vector<CatalogSpec> specs, const KnowledgeBase& kb, const HostTables& hosts,
                          const std::string& org);

/// How the page names a spec: its path as given where that is relative (a
/// built-in "examples/build-pytorch/main.toml", a repository's "specs/x.toml"),
/// else its product and branch ("build-pytorch/main"): a published page
/// carries no path of the machine that made it.
std::string spec_label(const Spec& spec);

/// The page's data: strings once in a table, answers and variants as indices.
nlohmann::json catalog_json(const CatalogData& data, const KnowledgeBase& kb);

}  // namespace tailor
