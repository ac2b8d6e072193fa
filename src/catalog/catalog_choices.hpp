#pragma once
/// What the catalog page's selector offers, derived from the knowledge base
/// and the specs: platforms, the CPUs of each (by ISA target, with example
/// families), the GPUs of each (by architecture, named by product), driver
/// versions (the floors of the CUDA toolkits the specs use), and the
/// (spec, package, Python) products. Each combination is a host that
/// `recommend` judges exactly as it judges a real one.

#include <set>
#include <string>
#include <vector>

#include "host/host_facts.hpp"
#include "kb/knowledge_base.hpp"
#include "kb/platform.hpp"
#include "matrix/expand.hpp"
#include "matrix/spec.hpp"

namespace tailor {

/// A CPU the page offers: the features of an ISA target and those of every
/// target ranked below it on its platform. An empty \a isas is a CPU none of
/// the platform's targets runs on (or a platform without targets).
struct CpuChoice {
  std::string label;                  ///< "AVX-512 BF16", or what the platform's CPUs are called
  std::vector<std::string> examples;  ///< CPU families, from the KB's ISA examples
  std::vector<std::string> isas;      ///< the targets whose features define it
  std::set<std::string> features;     ///< as /proc/cpuinfo spells them
};

struct PlatformChoice {
  std::string platform;  ///< "x86_64-linux"
  std::string arch;      ///< "x86_64"
  Os os = Os::gnu_linux;
  std::string label;  ///< platforms.toml display; the system where the table lacks it
  std::vector<CpuChoice> cpus;
  std::vector<const GpuArch*> gpus;  ///< NVIDIA GPUs of this platform, oldest first; none on darwin
};

/// A driver version offered; an empty \a version is "unknown / not given".
struct DriverChoice {
  std::string version;
  std::string label;
};

/// One spec's matrix, expanded.
struct CatalogSpec {
  Spec spec;
  Matrix matrix;
};

/// A package of one spec's matrix, with its version and its Pythons; one per
/// version where the spec lists several ([[family.version]]), newest first.
struct ProductChoice {
  size_t spec = 0;                   ///< index into the catalog's specs
  std::string package, version;      ///< version: empty when the matrix does not say
  std::vector<std::string> pythons;  ///< newest first; one empty entry for packages without Python
  bool versioned = false;            ///< a [[family.version]]: recommend is asked for it (--version)
};

struct CatalogChoices {
  std::vector<PlatformChoice> platforms;
  std::vector<DriverChoice> drivers;  ///< newest first, "unknown" last
  std::vector<ProductChoice> products;
};

/// The choices for \a specs: the platforms their variants are built for, the
/// drivers their CUDA toolkits need.
CatalogChoices catalog_choices(const std::vector<CatalogSpec>& specs, const KnowledgeBase& kb);

/// The host a choice describes. \a gpu null: no NVIDIA GPU. The GPUs come from
/// the same parser as `--gpus` (`SM:DRIVER`, or `none`), so reasons name them as
/// `tailor recommend --gpus` does.
HostFacts catalog_host(const PlatformChoice& platform, const CpuChoice& cpu, const GpuArch* gpu,
                       const DriverChoice& driver, const KnowledgeBase& kb, const HostTables& t);

/// Where the page's machine comes from, in its reasons: the CPU, the GPUs and
/// the package, version and Python a reader chose (recommend names flags).
inline constexpr const char* kCatalogCpuSource = "chosen in the catalog";

}  // namespace tailor
