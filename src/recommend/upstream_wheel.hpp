#pragma once
/// PyTorch's own wheels, for a machine that no tailored variant fits (or to
/// compare with one): which index of download.pytorch.org carries the torch
/// wheel whose CUDA this host's driver runs and whose code its GPUs load.
/// uv's `--torch-backend=auto` decides by the driver alone; this also asks
/// whether the toolkit compiles for the GPU's SM. The table is data:
/// data/upstream_wheels.toml, overlaid like the host tables.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "host/host_facts.hpp"
#include "kb/knowledge_base.hpp"

namespace tailor {

struct UpstreamWheels {
  std::string for_package;  ///< the knowledge base's package they stand in for, "pytorch"
  std::string package;      ///< its name on the index, "torch"
  std::string index;        ///< "https://download.pytorch.org/whl/{backend}"
  std::string cpu_backend;  ///< "cpu"
  struct Release {
    std::string version;                ///< torch minor, "2.9"
    std::vector<std::string> cuda;      ///< the toolkits it is built with, oldest first
    std::string default_cuda;           ///< the build PyPI's own wheel is; empty: not recorded
    std::vector<std::string> disputed;  ///< builds some sources name and others deny: never chosen
    std::string source;
  };
  std::vector<Release> releases;  ///< oldest first
  /// The SMs one CUDA build carries code for on one platform, for some torch releases.
  struct Build {
    std::string cuda;                ///< "12.8"
    std::string platform;            ///< "x86_64-linux"
    std::vector<std::string> torch;  ///< the releases it is for; empty: every release
    std::vector<std::string> sm;     ///< cubins
    std::string ptx;                 ///< the SM whose PTX it carries too; empty: none
    std::string source;
  };
  std::vector<Build> builds;

  /// The build of torch \a release with \a cuda on \a platform; null when none is recorded.
  const Build* build(const std::string& release, const std::string& cuda, const std::string& platform) const;

  /// The embedded table, or \a overlay_dir/upstream_wheels.toml where there is one.
  static UpstreamWheels load(const std::optional<std::filesystem::path>& overlay_dir = std::nullopt);
  /// Parses one file. Throws DiagnosticError for bad data (closed schema).
  static UpstreamWheels parse(const std::string& path, std::string text);
};

/// Broken invariants, one line each: toolkits the knowledge base does not
/// know, releases out of order.
std::vector<std::string> check_invariants(const UpstreamWheels& w, const KnowledgeBase& kb);

struct UpstreamChoice {
  std::string torch;    ///< "2.9"
  std::string backend;  ///< "cu128", "cpu"; empty on macOS (PyPI's own wheels)
  std::string index_url;
  std::vector<std::string> reasons;
  std::string install;  ///< the uv command
};

/// The upstream wheel for \a host: of torch \a version's minor (empty: the
/// newest in the table), the newest CUDA build the driver runs and every GPU
/// is compiled for; the CPU build without a usable GPU. Nullopt when the
/// table has no such torch version (\a why says so).
std::optional<UpstreamChoice> choose_upstream_wheel(const HostFacts& host, const UpstreamWheels& wheels,
                                                    const KnowledgeBase& kb, const std::string& version,
                                                    std::string& why);

}  // namespace tailor
