#include "host/gpu_spec.hpp"

#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "host/host_tables.hpp"
#include "kb/gpu_names.hpp"
#include "util/diagnostic.hpp"
#include "util/edit_distance.hpp"
#include "util/file_error.hpp"
#include "util/version.hpp"

namespace tailor {

namespace {

constexpr const char* kUsage =
    "write --gpus GPU[:DRIVER],... where GPU is a compute capability (9.0) or a product (H100, \"RTX 4090\", "
    "\"DGX Spark\"), e.g. --gpus H100:580.65.06, or --gpus none";

[[noreturn]] void fail(std::string message, std::string hint = {}) {
  throw_file_error("", std::move(message), hint.empty() ? kUsage : std::move(hint));
}

// What one entry of the spec names: an architecture, a machine, or both.
struct NamedGpu {
  const GpuArch* arch = nullptr;
  const IntegratedSystem* system = nullptr;
};

NamedGpu name_gpu(const std::string& word, const KnowledgeBase& kb, const HostTables& t) {
  if (const GpuArch* arch = kb.gpu(word)) return {arch};
  if (auto alt = sm_from_token(word); alt && kb.gpu(*alt)) return {kb.gpu(*alt)};
  if (const IntegratedSystem* s = t.system(word)) {
    if (s->gpu_sm.empty()) return {nullptr, s};
    if (const GpuArch* arch = kb.gpu(s->gpu_sm)) return {arch, s};
    fail(fmt::format("--gpus: {}'s GPU is compute capability {}, which the knowledge base does not know", s->name,
                     s->gpu_sm));
  }
  auto named = gpus_named(kb, word);
  if (named.size() == 1) return {named[0]};
  if (named.size() > 1) {
    std::vector<std::string> sms;
    for (const GpuArch* g : named) sms.push_back(fmt::format("{} ({})", g->sm, g->family));
    fail(fmt::format("--gpus: '{}' is the name of several compute capabilities: {}", word, fmt::join(sms, ", ")),
         fmt::format("write the compute capability, e.g. --gpus {}", named.back()->sm));
  }
  // A number: the SMs near it, with their products; a word: the closest name.
  std::string hint;
  if (Version::parse(word)) {
    hint = sm_hint(kb, word);
  } else {
    std::vector<std::string> words = kb.gpu_names();
    for (const auto& g : kb.gpus) words.insert(words.end(), g.products.begin(), g.products.end());
    for (const auto& s : t.system_names()) words.push_back(s);
    hint = did_you_mean(word, words);
  }
  fail(fmt::format("--gpus: unknown GPU '{}'", word), hint.empty() ? kUsage : hint);
}

}  // namespace

std::optional<std::string> driver_release(std::string_view text, const KnowledgeBase& kb, std::string& note) {
  auto v = Version::parse(text);
  if (!v) return std::nullopt;
  if (v->size() >= 2) return std::string(text);
  // A branch alone: its lowest release the knowledge base knows, a CUDA toolkit's minimum.
  const Version* lowest = nullptr;
  const CudaToolkit* of = nullptr;
  for (const auto& c : kb.cudas)
    for (const Version* d :
         {c.min_driver ? &*c.min_driver : nullptr, c.minor_compat_driver ? &*c.minor_compat_driver : nullptr})
      if (d && d->size() >= 2 && d->major() == v->major() && (!lowest || *d < *lowest)) lowest = d, of = &c;
  if (lowest) {
    note = fmt::format(
        "driver {} taken as {}, the lowest {} release the knowledge base knows (what CUDA {} needs); give the full "
        "version for an exact answer",
        text, lowest->str(), text, of->version.str());
    return lowest->str();
  }
  note = fmt::format("driver {}: the knowledge base knows no {} release; taken as {}.0, below every release of it",
                     text, text, text);
  return std::string(text) + ".0";
}

GpuReport parse_gpu_spec(std::string_view spec, const KnowledgeBase& kb, const HostTables& t) {
  GpuReport r;
  r.source = "--gpus";
  if (spec == "none") return r;
  if (spec.empty()) fail("--gpus: empty GPU list");
  size_t pos = 0;
  int index = 0;
  std::string written_driver;
  bool mac = false;
  while (pos <= spec.size()) {
    size_t comma = spec.find(',', pos);
    std::string_view item = spec.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
    pos = comma == std::string_view::npos ? spec.size() + 1 : comma + 1;
    if (item.empty()) fail(fmt::format("--gpus '{}': empty entry", spec));
    size_t colon = item.find(':');
    std::string word(item.substr(0, colon));
    std::string driver = colon == std::string_view::npos ? std::string() : std::string(item.substr(colon + 1));
    if (word == "none") fail(fmt::format("--gpus '{}': 'none' cannot be combined with GPUs", spec));
    NamedGpu named = name_gpu(word, kb, t);
    if (named.system) {
      if (!r.system.empty() && r.system != named.system->name)
        fail(fmt::format("--gpus: two machines, {} and {}; write one machine's GPUs", r.system, named.system->name));
      r.system = named.system->name;
    }
    mac = mac || !named.arch;
    if (colon != std::string_view::npos) {
      std::string note;
      auto release = driver_release(driver, kb, note);
      if (!release)
        fail(fmt::format("--gpus: '{}' is not a driver version", driver),
             "a driver version looks like 580.65.06, or a branch: 580");
      if (!written_driver.empty() && written_driver != driver)
        fail(fmt::format("--gpus: two drivers, {} and {}; the GPUs of one host share one driver", written_driver,
                         driver));
      if (written_driver.empty() && !note.empty()) r.notes.push_back(note);
      written_driver = driver;
      r.driver = *release;
    }
    if (!named.arch) continue;
    GpuInfo g;
    g.index = index++;
    g.sm = named.arch->sm;
    g.name = named.system ? named.system->name + " GPU" : named.arch->family + " GPU";
    r.gpus.push_back(std::move(g));
  }
  if (mac && (!r.gpus.empty() || !r.driver.empty()))
    fail(fmt::format("--gpus '{}': {} is a Mac, which has no NVIDIA GPU or driver", spec, r.system));
  for (auto& g : r.gpus) g.driver = r.driver;
  if (r.driver.empty() && !r.gpus.empty())
    r.notes.push_back("--gpus gave no driver version: driver requirements cannot be checked");
  return r;
}

}  // namespace tailor
