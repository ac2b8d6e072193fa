#include "recommend/variant_wheel.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "kb/driver_rule.hpp"
#include "kb/runs_on.hpp"
#include "kb/wheel_variant.hpp"
#include "util/diagnostic.hpp"
#include "util/file_error.hpp"
#include "util/read_file.hpp"

namespace tailor {

namespace fs = std::filesystem;

namespace {

// A distribution name as wheel file names escape it (lower case, runs of -_. as _).
std::string normalized(std::string_view name) {
  std::string out;
  for (char c : name) {
    char d = (c == '-' || c == '.') ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (d == '_' && !out.empty() && out.back() == '_') continue;
    out += d;
  }
  return out;
}

struct Candidate {
  fs::path path;
  WheelName name;
};

// "90_real" -> SASS of 90, "90_virtual" -> PTX of 90 (NVIDIA's provider: CMake's spelling).
std::optional<CudaCode> sm_arch_code(const std::string& value) {
  const bool ptx = value.ends_with("_virtual");
  if (!ptx && !value.ends_with("_real")) return std::nullopt;
  auto code = parse_sm(value.substr(0, value.rfind('_')));
  if (!code || code->suffix != '\0') return std::nullopt;
  code->ptx = ptx;
  return code;
}

// How a compatible wheel ranks: its code nearest the newest GPU first.
struct Rank {
  bool null_variant = false;
  uint32_t best = 0;  ///< the highest SM number of its code that runs on the newest GPU
  bool sass = false;

  bool better_than(const Rank& o) const {
    if (null_variant != o.null_variant) return !null_variant;
    if (best != o.best) return best > o.best;
    return sass && !o.sass;
  }
};

// Why a variant of \a props does not run here; empty when it does (then \a rank and \a why say how).
std::string refusal(const VariantProperties& props, const HostFacts& host, const KnowledgeBase& kb, Rank& rank,
                    std::string& why) {
  std::vector<GpuTarget> gpus;
  for (const auto& g : host.gpu.gpus)
    if (auto t = any_gpu_target(kb, g.sm)) gpus.push_back(*t);
  const GpuTarget* newest = nullptr;
  for (const auto& g : gpus)
    if (!newest || g.number > newest->number) newest = &g;
  for (const auto& [ns, features] : props) {
    if (ns != kNvidiaNamespace) return fmt::format("namespace '{}': tailor has no rule for it", ns);
    for (const auto& [feature, values] : features) {
      if (feature == kSmArchFeature) {
        if (gpus.empty()) return "it carries GPU code and this host has no NVIDIA GPU";
        for (const auto& g : gpus) {
          bool runs = false;
          for (const auto& v : values)
            if (auto c = sm_arch_code(v); c && runs_on(*c, g)) runs = true;
          if (!runs)
            return fmt::format("{} :: {} :: {}: none of it runs on SM {}", ns, feature, fmt::join(values, ", "), g.sm);
        }
        for (const auto& v : values)
          if (auto c = sm_arch_code(v); c && runs_on(*c, *newest))
            if (c->number > rank.best || (c->number == rank.best && !c->ptx)) {
              rank.best = c->number;
              rank.sass = !c->ptx;
              why = fmt::format("{} :: {} :: {} runs on SM {}", ns, feature, v, newest->sm);
            }
      } else if (feature == kCudaLowerBoundFeature) {
        std::string no;
        bool met = false;
        for (const auto& v : values) {
          const CudaToolkit* tk = kb.cuda(v);
          if (!tk) {
            no = fmt::format("{} :: {} :: {}: CUDA {} is not in the knowledge base", ns, feature, v, v);
            continue;
          }
          auto driver = Version::parse(host.gpu.driver);
          std::optional<DriverFloor> top;  // the driver rule, for each GPU: the highest floor decides
          for (const auto& g : host.gpu.gpus)
            if (auto f = driver_floor(*tk, kb.gpu(g.sm)); f && (!top || top->floor < f->floor)) top = f;
          if (driver && top && *driver < top->floor &&
              !(top->floor.size() == 1 && driver->major() >= top->floor.major())) {
            no = fmt::format("{} :: {} :: {}: driver {} is older than {} ({})", ns, feature, v, host.gpu.driver,
                             driver_text(top->floor), top->why);
            continue;
          }
          met = true;
        }
        if (!met) return no;
      } else {
        return fmt::format("feature '{} :: {}': tailor has no rule for it", ns, feature);
      }
    }
  }
  return "";
}

}  // namespace

VariantWheelChoice choose_variant_wheel(const HostFacts& host, const KnowledgeBase& kb, const fs::path& dir,
                                        const std::string& package, const std::string& version) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw_file_error(dir, "not a directory");
  std::vector<Candidate> all;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    auto n = parse_wheel_name(it->path().filename().string());
    if (!n) continue;
    if (!package.empty() && normalized(n->distribution) != normalized(package)) continue;
    if (!version.empty() && n->version != version) continue;
    all.push_back({it->path(), *n});
  }
  std::sort(all.begin(), all.end(), [](const Candidate& a, const Candidate& b) { return a.path < b.path; });
  std::set<std::pair<std::string, std::string>> versions;  // of variant wheels
  for (const auto& c : all)
    if (!c.name.label.empty()) versions.emplace(c.name.distribution, c.name.version);
  if (versions.empty())
    throw_file_error(dir,
                     package.empty() ? "no variant wheel here" : fmt::format("no variant wheel of {} here", package),
                     "tailor prune WHEEL --each SM,SM -o DIR writes them");
  if (versions.size() > 1) {
    std::vector<std::string> names;
    for (const auto& [d, v] : versions) names.push_back(d + " " + v);
    throw_file_error(dir, fmt::format("variant wheels of several packages or versions: {}", fmt::join(names, ", ")),
                     "--package and --version choose one");
  }
  const auto [dist, ver] = *versions.begin();
  WheelName first;
  for (const auto& c : all)
    if (!c.name.label.empty()) first = c.name;
  VariantWheelChoice out;
  const fs::path index_path = dir / first.variants_index_name();
  out.index = index_path.string();
  // PEP 825: without the index every variant wheel is incompatible.
  std::optional<VariantMetadata> index;
  if (fs::exists(index_path, ec))
    index = parse_variant_json(read_file(index_path, "the variants index"), index_path.string());
  struct Judged {
    const Candidate* c;
    Rank rank;
    std::string why;
  };
  std::vector<Judged> runs;
  std::vector<std::string> not_run;
  const Candidate* plain = nullptr;  // a non-variant wheel of that version: the last resort
  for (const auto& c : all) {
    if (c.name.distribution != dist || c.name.version != ver) continue;
    if (c.name.label.empty()) {
      if (!plain) plain = &c;
      continue;
    }
    const std::string file = c.path.filename().string();
    if (!index) {
      not_run.push_back(fmt::format("not {}: no {} beside it (PEP 825: its labels mean nothing without it)", file,
                                    index_path.filename().string()));
      continue;
    }
    auto it = index->variants.find(c.name.label);
    if (it == index->variants.end()) {
      not_run.push_back(
          fmt::format("not {}: label '{}' is not in {}", file, c.name.label, index_path.filename().string()));
      continue;
    }
    Judged j{&c, {}, {}};
    j.rank.null_variant = c.name.label == "null";
    if (std::string no = refusal(it->second, host, kb, j.rank, j.why); !no.empty()) {
      not_run.push_back(fmt::format("not {}: {}", file, no));
      continue;
    }
    if (j.rank.null_variant) j.why = "the null variant, which runs anywhere";
    runs.push_back(std::move(j));
  }
  std::stable_sort(runs.begin(), runs.end(), [](const Judged& a, const Judged& b) {
    if (a.rank.better_than(b.rank)) return true;
    if (b.rank.better_than(a.rank)) return false;
    return a.c->name.label < b.c->name.label;
  });
  if (!runs.empty()) {
    const Judged& best = runs.front();
    out.wheel = best.c->path.string();
    out.label = best.c->name.label;
    out.properties = property_lines(index->variants.at(out.label));
    out.reasons.push_back(fmt::format("variant {}: {}", out.label, best.why));
    for (size_t i = 1; i < runs.size(); ++i)
      out.reasons.push_back(
          fmt::format("also runs here: {} ({}), ranked lower", runs[i].c->path.filename().string(), runs[i].why));
  } else if (plain) {
    out.wheel = plain->path.string();
    out.reasons.push_back("no variant runs here: the non-variant wheel");
  }
  out.reasons.insert(out.reasons.end(), not_run.begin(), not_run.end());
  return out;
}

}  // namespace tailor
