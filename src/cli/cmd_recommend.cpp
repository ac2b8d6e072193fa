// tailor recommend [--spec SPEC] [--workload W] [--version V] [--json] [--why-not NAME]:
// the variant of a matrix to install on this host, with the reason for each
// decision, the runners-up and the install command.
#include <cstdlib>
#include <ostream>

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include "catalog/catalog_link.hpp"
#include "cli/command.hpp"
#include "cli/host_options.hpp"
#include "cli/options.hpp"
#include "cli/session.hpp"
#include "matrix/spec_loader.hpp"
#include "recommend/recommend.hpp"
#include "recommend/upstream_wheel.hpp"
#include "recommend/variant_wheel.hpp"
#include "util/diagnostic.hpp"
#include "util/exit_status.hpp"
#include "util/json_text.hpp"

namespace tailor {

namespace {

// --format uv: PyTorch's own wheel for this host, beside the tailored answer.
int print_upstream_wheel(Session& ctx, const HostFacts& facts, const KnowledgeBase& kb, const std::string& kb_dir,
                         const Recommendation& r, const RecommendRequest& req, bool json) {
  std::string dir = overlay_dir(kb_dir);  // the overlay load_kb read, which may hold its own upstream_wheels.toml
  UpstreamWheels wheels = UpstreamWheels::load(dir.empty() ? std::nullopt : std::optional<std::filesystem::path>(dir));
  if (!req.package.empty() && req.package != wheels.for_package) {
    Diagnostic d;
    d.message = fmt::format("--format uv: upstream_wheels.toml names the wheels of {}, not of {}", wheels.for_package,
                            req.package);
    ctx.err << d.render();
    return kExitBadInput;
  }
  std::string why;
  // The torch the tailored answer has, where the table knows it; else the one asked for, else the newest.
  std::optional<UpstreamChoice> c;
  if (req.version.empty() && r.variant && r.variant->package == wheels.for_package)
    c = choose_upstream_wheel(facts, wheels, kb, r.variant->version_of(wheels.for_package), why);
  if (!c) c = choose_upstream_wheel(facts, wheels, kb, req.version, why);
  if (!c) {
    Diagnostic d;
    d.message = "--format uv: " + why;
    ctx.err << d.render();
    return kExitBadInput;
  }
  std::string tailored = r.variant ? r.variant->name : std::string();
  if (json) {
    nlohmann::json j = {{"torch", c->torch},
                        {"backend", c->backend.empty() ? nlohmann::json() : nlohmann::json(c->backend)},
                        {"index_url", c->index_url.empty() ? nlohmann::json() : nlohmann::json(c->index_url)},
                        {"install", c->install},
                        {"reasons", c->reasons},
                        {"tailored_variant", tailored.empty() ? nlohmann::json() : nlohmann::json(tailored)}};
    ctx.out << j.dump(2) << "\n";
    return kExitOk;
  }
  if (!c->index_url.empty()) ctx.out << "index    " << c->index_url << "\n";
  ctx.out << "install  " << c->install << "\n\nbecause\n";
  for (const auto& reason : c->reasons) ctx.out << "  " << reason << "\n";
  if (!tailored.empty())
    ctx.out << "\nnote: a tailored variant fits this host: " << tailored << " (tailor recommend without --format)\n";
  return kExitOk;
}

// --wheels DIR: the PEP 825 variant wheel of DIR that runs on this host.
int print_variant_wheel(Session& ctx, const VariantWheelChoice& c, bool json) {
  if (json) {
    nlohmann::json j = {{"wheel", c.wheel.empty() ? nlohmann::json() : nlohmann::json(c.wheel)},
                        {"label", c.label.empty() ? nlohmann::json() : nlohmann::json(c.label)},
                        {"properties", c.properties},
                        {"index", c.index},
                        {"reasons", c.reasons}};
    ctx.out << json_text(j);
    return c.wheel.empty() ? kExitProblems : kExitOk;
  }
  if (c.wheel.empty()) {
    Diagnostic d;
    d.message = "no wheel of the folder runs on this host";
    d.notes = c.reasons;
    d.hint = "'tailor detect' shows what tailor found; --gpus plans for another machine";
    ctx.err << d.render();
    return kExitProblems;
  }
  ctx.out << c.wheel << "\n\nbecause\n";
  for (const auto& reason : c.reasons) ctx.out << "  " << reason << "\n";
  if (!c.label.empty())
    ctx.out << fmt::format(
        "\nnote: installers without PEP 825 support refuse a variant wheel's file name by design; for them, copy "
        "it to its name without '-{}'\n",
        c.label);
  return kExitOk;
}

struct RecommendRun final : CommandRun {
  std::string spec_arg = kDefaultSpec, workload = "general", why_not, org = "flox", format = "flox", link, wheels;
  RecommendRequest req;
  bool json = false;
  HostArgs host;
  std::unique_ptr<EarlyGpuQuery> gpus;

  void define(CLI::App& app) override;
  void validate() override {
    req.workload = *workload_from_name(workload);
    gpus = std::make_unique<EarlyGpuQuery>(host.options());  // runs while the knowledge base and the spec load
  }
  std::vector<std::string> specs() override {
    if (!wheels.empty()) return {};  // the folder's wheels, no matrix
    return {spec_arg};
  }
  int run(Session& s) override;
  int print_json(Session& s, const Recommendation& r, const std::vector<std::string>& notes) const;
  int print_text(Session& s, const Spec& spec, const Recommendation& r, const std::vector<std::string>& notes) const;
};

void RecommendRun::define(CLI::App& app) {
  app.description("Choose the variant of a matrix to install on this host, and say why.");
  app.add_option("--spec", spec_arg, "spec file or built-in spec (default: build-pytorch/main)");
  app.add_option("--workload", workload, "general, bf16-training or int8-inference (picks the AVX-512 flavour)")
      ->check(CLI::IsMember(workload_names()));
  app.add_option("--package", req.package, "the package to install (default: pytorch, or the matrix's only one)");
  app.add_option("--version", req.version,
                 "the version of the package, where the spec builds several (default: the newest)");
  app.add_option("--python", req.python, "the Python version (default: the newest in the matrix)");
  app.add_option("--why-not", why_not, "explain why variant NAME was not chosen")->type_name("NAME");
  app.add_option("--org", org, "the Flox organisation that publishes the builds (default: flox)");
  app.add_option("--format", format,
                 "flox: the tailored variant (default); uv: PyTorch's own wheel index that fits this host, for pip "
                 "and uv, when no tailored variant does")
      ->check(CLI::IsMember({"flox", "uv"}));
  app.add_flag("--json", json, "print JSON: variant, reasons, alternatives, warnings");
  app.add_option("--link", link,
                 "print only the link that opens the catalog page at URL (tailor catalog of this spec) on this "
                 "host's answer")
      ->type_name("URL")
      ->check(CLI::Validator([](const std::string& v) { return link_url_problem(v); }, ""));
  app.add_option("--wheels", wheels,
                 "choose among the PEP 825 variant wheels in DIR (tailor prune --each writes them) the one that runs "
                 "on this host, instead of a variant of the spec")
      ->type_name("DIR");
  add_host_options(app, host);
}

int RecommendRun::print_json(Session& s, const Recommendation& r, const std::vector<std::string>& notes) const {
  nlohmann::json alternatives = nlohmann::json::array();
  for (const auto& a : r.alternatives) alternatives.push_back(a.name);
  nlohmann::json j = {{"variant", r.variant ? nlohmann::json(r.variant->name) : nlohmann::json()},
                      {"reasons", r.reasons},
                      {"alternatives", alternatives},
                      {"warnings", r.warnings},
                      {"notes", notes}};
  s.out << json_text(j);
  return r.variant ? kExitOk : kExitProblems;
}

int RecommendRun::print_text(Session& s, const Spec& spec, const Recommendation& r,
                             const std::vector<std::string>& notes) const {
  if (!r.variant) {
    Diagnostic d;
    d.message = fmt::format("nothing in the matrix of {} runs on this host", spec.path);
    d.notes = r.reasons;
    d.hint =
        "'tailor detect' shows what tailor found; --gpus, --cpuinfo and --os plan for another machine; "
        "--format uv names PyTorch's own wheel index for this host";
    s.err << d.render();
    return kExitProblems;
  }
  s.out << r.variant->name << "\n\nbecause\n";
  for (const auto& reason : r.reasons) s.out << "  " << reason << "\n";
  for (const auto& w : r.warnings) s.warn(w);
  for (const auto& n : notes) s.out << "note: " << n << "\n";
  if (!r.alternatives.empty()) {
    s.out << "\nalternatives\n";
    size_t width = 0;
    for (const auto& a : r.alternatives) width = std::max(width, a.name.size());
    for (const auto& a : r.alternatives) s.out << fmt::format("  {:<{}}  {}\n", a.name, width, a.why);
  }
  s.out << fmt::format("\ninstall  flox install {}/{}\nbuild    flox build {}\n", org, r.variant->name,
                       r.variant->name);
  return kExitOk;
}

int RecommendRun::run(Session& s) {
  const KnowledgeBase& kb = s.facts();
  if (!wheels.empty()) {
    HostFacts facts = detect_host(host.options(), kb, s.hosts(), gpus.get());
    return print_variant_wheel(s, choose_variant_wheel(facts, kb, wheels, req.package, req.version), json);
  }
  const auto& [spec, m] = s.matrix(spec_arg);
  HostFacts facts = detect_host(host.options(), kb, s.hosts(), gpus.get());
  if (!link.empty()) {
    std::vector<CatalogSpec> catalog{{spec, m}};
    s.out << catalog_link(link, catalog_choices(catalog, kb), facts, req, kb) << "\n";
    return kExitOk;
  }
  if (!why_not.empty()) {
    for (const auto& line : why_not_recommended(why_not, facts, m, kb, req)) s.out << line << "\n";
    return kExitOk;
  }
  Recommendation r = recommend(facts, m, kb, req);
  if (format == "uv") return print_upstream_wheel(s, facts, kb, s.kb_dir, r, req, json);
  // What tailor assumed of the machine (a driver branch taken as a release, a CPU known only by its architecture).
  std::vector<std::string> notes = facts.cpu.notes;
  notes.insert(notes.end(), facts.gpu.notes.begin(), facts.gpu.notes.end());
  return json ? print_json(s, r, notes) : print_text(s, spec, r, notes);
}

}  // namespace

std::unique_ptr<CommandRun> make_recommend() { return std::make_unique<RecommendRun>(); }

}  // namespace tailor
