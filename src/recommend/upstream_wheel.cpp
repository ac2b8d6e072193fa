#include "recommend/upstream_wheel.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/driver_rule.hpp"
#include "util/embedded.hpp"
#include "util/read_file.hpp"
#include "util/toml_reader.hpp"
#include "util/version.hpp"
#include "util/version_spelling.hpp"

namespace tailor {

namespace {

constexpr const char* kFile = "upstream_wheels.toml";

// "12.8" -> "cu128", as the index names it.
std::string backend_of(const std::string& cuda) { return "cu" + nodot(cuda); }

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
  // The releases are a table array named by `package` ([[torch]]), as are a build's releases.
  const std::string releases_key = w.package;
  for (const toml::table* t : root.tables(releases_key)) {
    TableReader r(doc, *t, "[[" + releases_key + "]]");
    Release rel;
    auto version = r.required_string("version");
    if (!Version::parse(version.value)) throw doc.error_at(version.pos, "'" + version.value + "' is not a version");
    rel.version = version.value;
    for (auto& c : r.strings("cuda").value_or(std::vector<Located<std::string>>{})) rel.cuda.push_back(c.value);
    if (auto d = r.string("default")) rel.default_cuda = d->value;
    for (auto& c : r.strings("disputed").value_or(std::vector<Located<std::string>>{})) rel.disputed.push_back(c.value);
    if (auto src = r.string("source")) rel.source = src->value;
    r.finish();
    w.releases.push_back(std::move(rel));
  }
  for (const toml::table* t : root.tables("build")) {
    TableReader r(doc, *t, "[[build]]");
    Build b;
    b.cuda = r.required_string("cuda").value;
    b.platform = r.required_string("platform").value;
    for (auto& v : r.strings(releases_key).value_or(std::vector<Located<std::string>>{})) b.torch.push_back(v.value);
    for (auto& sm : r.strings("sm").value_or(std::vector<Located<std::string>>{})) {
      if (!Version::parse(sm.value)) throw doc.error_at(sm.pos, "'" + sm.value + "' is not a compute capability");
      b.sm.push_back(sm.value);
    }
    if (auto ptx = r.string("ptx")) {
      if (!Version::parse(ptx->value)) throw doc.error_at(ptx->pos, "'" + ptx->value + "' is not a compute capability");
      b.ptx = ptx->value;
    }
    b.source = r.required_string("source").value;
    r.finish();
    w.builds.push_back(std::move(b));
  }
  root.finish();
  return w;
}

const UpstreamWheels::Build* UpstreamWheels::build(const std::string& release, const std::string& cuda,
                                                   const std::string& platform) const {
  const Build* any = nullptr;
  for (const auto& b : builds) {
    if (b.cuda != cuda || b.platform != platform) continue;
    if (std::find(b.torch.begin(), b.torch.end(), release) != b.torch.end()) return &b;
    if (b.torch.empty()) any = &b;
  }
  return any;
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
      out.push_back(fmt::format("{}: {} {} is not newer than the release before it", kFile, w.package, r.version));
    for (size_t j = 0; j < r.cuda.size(); ++j) {
      if (!w.build(r.version, r.cuda[j], "x86_64-linux"))
        out.push_back(fmt::format("{}: {} {} names CUDA {}, which has no [[build]] saying its SMs", kFile, w.package,
                                  r.version, r.cuda[j]));
      if (!kb.cuda(r.cuda[j]))
        out.push_back(fmt::format("{}: {} {} names CUDA {}, which cuda_toolkits.toml does not know", kFile, w.package,
                                  r.version, r.cuda[j]));
      if (j > 0 && Version::parse(r.cuda[j]) && Version::parse(r.cuda[j - 1]) &&
          !(*Version::parse(r.cuda[j - 1]) < *Version::parse(r.cuda[j])))
        out.push_back(
            fmt::format("{}: {} {} lists CUDA {} after {}", kFile, w.package, r.version, r.cuda[j], r.cuda[j - 1]));
    }
    if (!r.default_cuda.empty() && std::find(r.cuda.begin(), r.cuda.end(), r.default_cuda) == r.cuda.end())
      out.push_back(
          fmt::format("{}: {} {}: default CUDA {} is none of its builds", kFile, w.package, r.version, r.default_cuda));
    for (const auto& d : r.disputed)
      if (std::find(r.cuda.begin(), r.cuda.end(), d) != r.cuda.end())
        out.push_back(fmt::format("{}: {} {}: CUDA {} is both a build and disputed", kFile, w.package, r.version, d));
  }
  for (const auto& b : w.builds) {
    if (!kb.cuda(b.cuda))
      out.push_back(
          fmt::format("{}: a [[build]] names CUDA {}, which cuda_toolkits.toml does not know", kFile, b.cuda));
    if (!kb.platforms.find(b.platform))
      out.push_back(fmt::format("{}: a [[build]] of CUDA {} names platform '{}', which platforms.toml does not know",
                                kFile, b.cuda, b.platform));
    for (const auto& t : b.torch)
      if (std::none_of(w.releases.begin(), w.releases.end(), [&](const UpstreamWheels::Release& r) {
            return r.version == t && std::find(r.cuda.begin(), r.cuda.end(), b.cuda) != r.cuda.end();
          }))
        out.push_back(fmt::format("{}: a [[build]] of CUDA {} names {} {}, which has no such build", kFile, b.cuda,
                                  w.package, t));
  }
  return out;
}

namespace {

// Whether a build's code runs on a GPU of capability \a sm: a cubin of its major at or
// below its minor, or PTX of an SM at or below it (the driver compiles it).
bool runs_on(const UpstreamWheels::Build& b, const std::string& sm) {
  auto gv = Version::parse(sm);
  if (!gv) return false;
  for (const auto& c : b.sm)
    if (auto v = Version::parse(c); v && v->major() == gv->major() && v->minor() <= gv->minor()) return true;
  auto ptx = Version::parse(b.ptx);
  return ptx && !(*gv < *ptx);
}

std::string carried_text(const UpstreamWheels::Build& b) {
  std::string out = fmt::format("{}", fmt::join(b.sm, " "));
  if (!b.ptx.empty()) out += fmt::format(", PTX of {}", b.ptx);
  return out;
}

// Why \a cuda's build of \a rel does not run here; empty when it does. \a floor_text: what the driver met.
std::string refusal(const HostFacts& host, const UpstreamWheels& wheels, const KnowledgeBase& kb,
                    const UpstreamWheels::Release& rel, const std::string& cuda, std::string* floor_text) {
  const CudaToolkit* tk = kb.cuda(cuda);
  if (!tk) return "cuda_toolkits.toml does not know it";
  const UpstreamWheels::Build* b = wheels.build(rel.version, cuda, host.platform);
  if (!b) return fmt::format("no {} build of it is recorded", host.platform);
  std::vector<std::string> without;
  for (const auto& g : host.gpu.gpus)
    if (!runs_on(*b, g.sm) && std::find(without.begin(), without.end(), g.sm) == without.end()) without.push_back(g.sm);
  if (!without.empty())
    return fmt::format("its {} build carries no code for SM {} (it has {})", host.platform, fmt::join(without, ", "),
                       carried_text(*b));
  auto driver = Version::parse(host.gpu.driver);
  if (!driver) return "";
  // The driver rule (kb/driver_rule.hpp), for each GPU: the highest floor decides.
  std::optional<DriverFloor> top;
  for (const auto& g : host.gpu.gpus) {
    auto f = driver_floor(*tk, kb.gpu(g.sm));
    if (f && (!top || top->floor < f->floor)) top = f;
  }
  if (!top) return "";
  if (*driver < top->floor && !(top->floor.size() == 1 && driver->major() >= top->floor.major()))
    return fmt::format("driver {} is older than {}: {}", host.gpu.driver, driver_text(top->floor), top->why);
  if (floor_text)
    *floor_text = fmt::format("driver {} meets {} ({})", host.gpu.driver, driver_text(top->floor), top->why);
  return "";
}

// A GPU of the host that the driver does not run at all (too old, or past its last branch).
std::string unsupported_gpu(const HostFacts& host, const KnowledgeBase& kb) {
  auto driver = Version::parse(host.gpu.driver);
  if (!driver) return "";
  for (const auto& g : host.gpu.gpus)
    if (const GpuArch* a = kb.gpu(g.sm))
      if (DriverSupport s = driver_supports(*a, *driver); s != DriverSupport::supported)
        return unsupported_text(*a, *driver, s) +
               (s == DriverSupport::too_old ? fmt::format(": upgrade to {}+", driver_text(*a->first_driver))
                                            : fmt::format(": keep an {} driver for it", driver_text(*a->last_driver)));
  return "";
}

}  // namespace

std::optional<UpstreamChoice> choose_upstream_wheel(const HostFacts& host, const UpstreamWheels& wheels,
                                                    const KnowledgeBase& kb, const std::string& version,
                                                    std::string& why) {
  const UpstreamWheels::Release* rel = nullptr;
  for (const auto& r : wheels.releases)
    if (version.empty() || r.version == major_minor(version)) rel = &r;
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
    c.reasons.push_back(
        fmt::format("macOS: PyPI's own {} wheels carry the MPS backend; no other index is needed", wheels.package));
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
  if (std::string u = unsupported_gpu(host, kb); !u.empty()) {
    c.reasons.push_back(u);
    c.reasons.push_back(
        fmt::format("no CUDA build of {} {} runs here: the CPU-only build", wheels.package, rel->version));
    use(wheels.cpu_backend);
    return c;
  }
  for (const auto& d : rel->disputed)
    c.reasons.push_back(
        fmt::format("not {}: some sources name a CUDA {} build of {} {}, its release notes do "
                    "not (disputed)",
                    backend_of(d), d, wheels.package, rel->version));
  for (auto it = rel->cuda.rbegin(); it != rel->cuda.rend(); ++it) {
    std::string met;
    std::string no = refusal(host, wheels, kb, *rel, *it, &met);
    if (!no.empty()) {
      c.reasons.push_back(fmt::format("not {}: {}", backend_of(*it), no));
      continue;
    }
    c.reasons.push_back(!met.empty() ? fmt::format("CUDA {}: {}", *it, met)
                                     : fmt::format("CUDA {}: the newest build of {} {} (no driver version given: "
                                                   "not checked)",
                                                   *it, wheels.package, rel->version));
    c.reasons.push_back(fmt::format("SM {}: the {} {} build carries code it runs ({})", host.conda_cuda_arch,
                                    backend_of(*it), host.platform,
                                    carried_text(*wheels.build(rel->version, *it, host.platform))));
    for (const auto& g : host.gpu.gpus)
      if (const GpuArch* a = kb.gpu(g.sm); a && a->preview)
        c.reasons.push_back(
            fmt::format("{} support is a developer preview ({}), not for production", a->family, a->driver_source));
    use(backend_of(*it));
    return c;
  }
  // The nearest release (newer first at equal distance) whose CUDA build runs here.
  std::string nearest;
  size_t at = static_cast<size_t>(rel - wheels.releases.data());
  for (size_t d = 1; nearest.empty() && d < wheels.releases.size(); ++d)
    for (size_t k : {at + d, at >= d ? at - d : wheels.releases.size()}) {
      if (k >= wheels.releases.size() || !nearest.empty()) continue;
      const auto& r = wheels.releases[k];
      for (auto it = r.cuda.rbegin(); it != r.cuda.rend() && nearest.empty(); ++it)
        if (refusal(host, wheels, kb, r, *it, nullptr).empty())
          nearest = fmt::format("{} {}'s {} build does", wheels.package, r.version, backend_of(*it));
    }
  c.reasons.push_back(fmt::format("no CUDA build of {} {} runs here: the CPU-only build; {}", wheels.package,
                                  rel->version,
                                  nearest.empty() ? fmt::format("no CUDA build of any {} release in the table "
                                                                "runs here either (a tailored variant may)",
                                                                wheels.package)
                                                  : nearest));
  use(wheels.cpu_backend);
  return c;
}

}  // namespace tailor
