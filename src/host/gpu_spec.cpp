#include "host/gpu_spec.hpp"

#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "util/diagnostic.hpp"
#include "util/edit_distance.hpp"
#include "util/file_error.hpp"
#include "util/version.hpp"

namespace tailor {

namespace {

[[noreturn]] void fail(std::string message, std::string hint = {}) {
  throw_file_error(
      "", std::move(message),
      hint.empty() ? "write --gpus SM[:DRIVER],... e.g. --gpus 9.0:580.65.06, or --gpus none" : std::move(hint));
}

}  // namespace

GpuReport parse_gpu_spec(std::string_view spec, const KnowledgeBase& kb) {
  GpuReport r;
  r.source = "--gpus";
  if (spec == "none") return r;
  if (spec.empty()) fail("--gpus: empty GPU list");
  size_t pos = 0;
  int index = 0;
  while (pos <= spec.size()) {
    size_t comma = spec.find(',', pos);
    std::string_view item = spec.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
    pos = comma == std::string_view::npos ? spec.size() + 1 : comma + 1;
    if (item.empty()) fail(fmt::format("--gpus '{}': empty entry", spec));
    size_t colon = item.find(':');
    std::string sm(item.substr(0, colon));
    std::string driver = colon == std::string_view::npos ? std::string() : std::string(item.substr(colon + 1));
    if (sm == "none") fail(fmt::format("--gpus '{}': 'none' cannot be combined with GPUs", spec));
    const GpuArch* arch = kb.gpu(sm);
    if (!arch) {
      if (auto alt = sm_from_token(sm); alt && kb.gpu(*alt)) {
        arch = kb.gpu(*alt);
      } else {
        auto names = kb.gpu_names();
        std::string hint = did_you_mean(sm, names);
        fail(fmt::format("--gpus: unknown compute capability '{}'", sm),
             hint.empty() ? fmt::format("known: {}", fmt::join(names, ", ")) : hint);
      }
    }
    if (colon != std::string_view::npos) {
      auto v = Version::parse(driver);
      if (!v || v->size() < 2)
        fail(fmt::format("--gpus: '{}' is not a driver version", driver), "a driver version looks like 580.65.06");
      if (!r.driver.empty() && r.driver != driver)
        fail(fmt::format("--gpus: two drivers, {} and {}; the GPUs of one host share one driver", r.driver, driver));
      r.driver = driver;
    }
    GpuInfo g;
    g.index = index++;
    g.sm = arch->sm;
    g.name = arch->family + " GPU";
    r.gpus.push_back(std::move(g));
  }
  for (auto& g : r.gpus) g.driver = r.driver;
  if (r.driver.empty()) r.notes.push_back("--gpus gave no driver version: driver requirements cannot be checked");
  return r;
}

}  // namespace tailor
