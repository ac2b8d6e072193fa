#include "recommend/upstream_wheel.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "util/embedded.hpp"
#include "util/read_file.hpp"
#include "util/toml_reader.hpp"
#include "util/version.hpp"

namespace tailor {

namespace {

constexpr const char* kFile = "upstream_wheels.toml";

// "12.8" -> "cu128", as the index names it.
std::string backend_of(const std::string& cuda) {
  std::string out = "cu";
  for (char c : cuda)
    if (c != '.') out += c;
  return out;
}

std::string minor_of(const std::string& version) {
  auto v = Version::parse(version);
  return v ? fmt::format("{}.{}", v->major(), v->minor()) : version;
}

}  // namespace

UpstreamWheels UpstreamWheels::parse(const std::string& path, std::string text) {
  TomlDocument doc(path, std::move(text));
  TableReader root(doc, doc.root(), kFile);
  UpstreamWheels w;
  w.for_package = root.required_string("for_package").value;
  w.package = root.required_string("package").value;
  auto index = root.required_string("index");
  if (index.value.find("{backend}") == std::string::npos)
    throw doc.error_at(index.pos, "the index URL has no {backend} for the build to go in",
                       "e.g. https://download.pytorch.org/whl/{backend}");
  w.index = index.value;
  w.cpu_backend = root.required_string("cpu_backend").value;
  for (const toml::table* t : root.tables("torch")) {
    TableReader r(doc, *t, "[[torch]]");
    Release rel;
    auto version = r.required_string("version");
    if (!Version::parse(version.value)) throw doc.error_at(version.pos, "'" + version.value + "' is not a version");
    rel.version = version.value;
    for (auto& c : r.strings("cuda").value_or(std::vector<Located<std::string>>{})) rel.cuda.push_back(c.value);
    r.finish();
    w.releases.push_back(std::move(rel));
  }
  for (const toml::table* t : root.tables("build")) {
    TableReader r(doc, *t, "[[build]]");
    auto cuda = r.required_string("cuda");
    std::vector<std::string> sms;
    for (auto& sm : r.strings("sm").value_or(std::vector<Located<std::string>>{})) {
      if (!Version::parse(sm.value)) throw doc.error_at(sm.pos, "'" + sm.value + "' is not a compute capability");
      sms.push_back(sm.value);
    }
    r.finish();
    w.build_sms[cuda.value] = std::move(sms);
  }
  root.finish();
  return w;
}

UpstreamWheels UpstreamWheels::load(const std::optional<std::filesystem::path>& overlay_dir) {
  if (overlay_dir) {
    std::filesystem::path overlay = *overlay_dir / kFile;
    std::error_code ec;
    if (std::filesystem::exists(overlay, ec)) return parse(overlay.string(), read_file(overlay));
  }
  auto text = embedded_file(std::string("data/") + kFile);
  if (!text) throw std::logic_error(std::string("the binary lacks data/") + kFile);
  return parse(std::string("data/") + kFile, std::string(*text));
}

std::vector<std::string> check_invariants(const UpstreamWheels& w, const KnowledgeBase& kb) {
  std::vector<std::string> out;
  if (!kb.package(w.for_package))
    out.push_back(fmt::format("{}: for_package '{}' is no package of the knowledge base", kFile, w.for_package));
  for (size_t i = 0; i < w.releases.size(); ++i) {
    const auto& r = w.releases[i];
    if (i > 0 && !(*Version::parse(w.releases[i - 1].version) < *Version::parse(r.version)))
      out.push_back(fmt::format("{}: torch {} is not newer than the release before it", kFile, r.version));
    for (size_t j = 0; j < r.cuda.size(); ++j) {
      if (!w.build_sms.contains(r.cuda[j]))
        out.push_back(fmt::format("{}: torch {} names CUDA {}, which has no [[build]] saying its SMs", kFile, r.version,
                                  r.cuda[j]));
      if (!kb.cuda(r.cuda[j]))
        out.push_back(fmt::format("{}: torch {} names CUDA {}, which cuda_toolkits.toml does not know", kFile,
                                  r.version, r.cuda[j]));
      if (j > 0 && Version::parse(r.cuda[j]) && Version::parse(r.cuda[j - 1]) &&
          !(*Version::parse(r.cuda[j - 1]) < *Version::parse(r.cuda[j])))
        out.push_back(fmt::format("{}: torch {} lists CUDA {} after {}", kFile, r.version, r.cuda[j], r.cuda[j - 1]));
    }
  }
  return out;
}

std::optional<UpstreamChoice> choose_upstream_wheel(const HostFacts& host, const UpstreamWheels& wheels,
                                                    const KnowledgeBase& kb, const std::string& version,
                                                    std::string& why) {
  const UpstreamWheels::Release* rel = nullptr;
  for (const auto& r : wheels.releases)
    if (version.empty() || r.version == minor_of(version)) rel = &r;
  if (!rel) {
    std::vector<std::string> known;
    for (const auto& r : wheels.releases) known.push_back(r.version);
    why = fmt::format("{} {} is not in upstream_wheels.toml (it knows {})", wheels.package, version,
                      fmt::join(known, ", "));
    return std::nullopt;
  }
  UpstreamChoice c;
  c.torch = rel->version;
  std::string pin = fmt::format("'{}=={}.*'", wheels.package, rel->version);
  if (host.os == Os::darwin) {
    c.reasons.push_back("macOS: PyPI's own torch wheels carry the MPS backend; no other index is needed");
    c.install = fmt::format("uv pip install {}", pin);
    return c;
  }
  auto use = [&](const std::string& backend) {
    c.backend = backend;
    c.index_url = wheels.index;
    c.index_url.replace(c.index_url.find("{backend}"), 9, backend);
    c.install = fmt::format("uv pip install {} --index-url {}", pin, c.index_url);
  };
  if (host.gpu.gpus.empty()) {
    c.reasons.push_back("no NVIDIA GPU: the CPU-only build");
    use(wheels.cpu_backend);
    return c;
  }
  auto driver = Version::parse(host.gpu.driver);
  for (auto it = rel->cuda.rbegin(); it != rel->cuda.rend(); ++it) {
    const CudaToolkit* cuda = kb.cuda(*it);
    if (!cuda) continue;
    // Every GPU needs code in the build: a cubin of its major at or below its minor.
    const auto& carried = wheels.build_sms.at(*it);
    std::vector<std::string> without;
    for (const auto& g : host.gpu.gpus) {
      auto gv = Version::parse(g.sm);
      bool runs = gv && std::any_of(carried.begin(), carried.end(), [&](const std::string& sm) {
                    auto v = Version::parse(sm);
                    return v && v->major() == gv->major() && v->minor() <= gv->minor();
                  });
      if (!runs && std::find(without.begin(), without.end(), g.sm) == without.end()) without.push_back(g.sm);
    }
    if (!without.empty()) {
      c.reasons.push_back(fmt::format("not {}: its build carries no code for SM {} (it has {})", backend_of(*it),
                                      fmt::join(without, ", "), fmt::join(carried, " ")));
      continue;
    }
    if (driver && cuda->lowest_driver() && *driver < *cuda->lowest_driver()) {
      c.reasons.push_back(fmt::format("not {}: driver {} is older than {}, NVIDIA's minimum for CUDA {}",
                                      backend_of(*it), host.gpu.driver, cuda->lowest_driver()->str(), *it));
      continue;
    }
    c.reasons.push_back(
        driver
            ? fmt::format("CUDA {}: driver {} meets {}, {}", *it, host.gpu.driver, cuda->lowest_driver()->str(),
                          cuda->min_driver ? "NVIDIA's minimum for it"
                                           : "its minor-version compatibility floor (its GA minimum is not recorded)")
            : fmt::format("CUDA {}: the newest build of torch {} (no driver version given: not checked)", *it,
                          rel->version));
    c.reasons.push_back(fmt::format("SM {}: the {} build carries code it runs ({})", host.conda_cuda_arch,
                                    backend_of(*it), fmt::join(carried, " ")));
    use(backend_of(*it));
    return c;
  }
  c.reasons.push_back(fmt::format("no CUDA build of torch {} runs here: the CPU-only build", rel->version));
  use(wheels.cpu_backend);
  return c;
}

}  // namespace tailor
