#include "generate/docs.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "util/quote.hpp"

namespace tailor {

namespace {

std::string code(const std::string& s) { return markdown_code(s); }

std::vector<std::string> distinct(const Matrix& m, std::string Variant::*field) {
  std::vector<std::string> out;
  for (const auto& v : m.variants)
    if (!(v.*field).empty() && std::find(out.begin(), out.end(), v.*field) == out.end()) out.push_back(v.*field);
  return out;
}

std::string product_list(const GpuArch& g) { return fmt::format("{}", fmt::join(g.products, ", ")); }

void versions_table(std::string& out, const Spec& spec, const Matrix& m, const KnowledgeBase& kb) {
  out += fmt::format("| Branch | Packages | {} | CUDA | Python | cuDNN | Min driver (NVIDIA) | nixpkgs pin |\n",
                     kb.package(kb.headline)->display);
  out += "|---|---|---|---|---|---|---|---|\n";
  std::vector<std::string> cudas = distinct(m, &Variant::cuda), pins = distinct(m, &Variant::pin),
                           pythons = distinct(m, &Variant::python);
  std::vector<std::string> headline_versions;
  for (const auto& v : m.variants)
    if (std::string h = v.version_of(kb.headline);
        !h.empty() && std::find(headline_versions.begin(), headline_versions.end(), h) == headline_versions.end())
      headline_versions.push_back(h);
  std::vector<std::string> drivers, cudnns;
  for (const auto& c : cudas) drivers.push_back(fmt::format("{}+ (CUDA {})", kb.cuda(c)->lowest_driver()->str(), c));
  for (const auto& p : pins) cudnns.push_back(kb.pin(p)->cudnn ? kb.pin(p)->cudnn->str() : "not recorded");
  std::set<std::string> packages;
  for (const auto& v : m.variants) packages.insert(v.package);
  out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n\n", markdown_cell(code(spec.name)),
                     fmt::join(packages, ", "),
                     headline_versions.empty() ? "-" : fmt::format("{}", fmt::join(headline_versions, ", ")),
                     cudas.empty() ? "-" : fmt::format("{}", fmt::join(cudas, " / ")), fmt::join(pythons, ", "),
                     fmt::join(cudnns, " / "), drivers.empty() ? "-" : fmt::format("{}", fmt::join(drivers, ", ")),
                     fmt::join(pins, " / "));
  for (const auto& p : pins)
    out += fmt::format("- nixpkgs {}: `{}`{}\n", code(p), kb.pin(p)->rev,
                       kb.pin(p)->sha256.empty() ? " (no tarball hash recorded yet: evaluation is impure)" : "");
  out += "\n";
}

// The SMs of the set that variants call \a sm; empty when \a sm is one SM.
std::vector<std::string> set_of(const Matrix& m, const std::string& sm) {
  for (const auto& v : m.variants)
    if (v.sm == sm) return v.sm_set;
  return {};
}

// SM x ISA coverage split by platform, and what the aarch64 ISAs map to
// (the tables of the flox/build-vllm README).
void coverage(std::string& out, const Matrix& m, const KnowledgeBase& kb) {
  std::vector<std::string> sms = distinct(m, &Variant::sm);
  if (sms.empty()) return;
  out += "## Coverage\n\n| SM | Capability | GPUs | CUDA | x86_64 ISAs | aarch64 ISAs |\n|---|---|---|---|---|---|\n";
  for (const auto& sm : sms) {
    std::vector<std::string> x86, arm, cudas;
    for (const auto& v : m.variants) {
      if (v.sm != sm) continue;
      auto& list = v.platform == "aarch64-linux" ? arm : x86;
      if (std::find(list.begin(), list.end(), v.isa) == list.end()) list.push_back(v.isa);
      if (std::find(cudas.begin(), cudas.end(), v.cuda) == cudas.end()) cudas.push_back(v.cuda);
    }
    std::vector<std::string> set = set_of(m, sm);
    const GpuArch* g = set.empty() ? kb.gpu(sm) : nullptr;
    out +=
        fmt::format("| {} | {} | {} | {} | {} | {} |\n", g ? g->display() : "SM set " + sm,
                    g ? sm : fmt::format("{}", fmt::join(set, ", ")), g ? product_list(*g) : "every GPU of these SMs",
                    fmt::join(cudas, ", "), x86.empty() ? "—" : fmt::format("{}", fmt::join(x86, ", ")),
                    arm.empty() ? "—" : fmt::format("{}", fmt::join(arm, ", ")));
  }
  std::vector<std::string> arm_isas;
  for (const auto& v : m.variants)
    if (v.platform == "aarch64-linux" && std::find(arm_isas.begin(), arm_isas.end(), v.isa) == arm_isas.end())
      arm_isas.push_back(v.isa);
  if (!arm_isas.empty()) {
    out += "\nARM platform mapping:\n\n";
    for (const auto& i : arm_isas) {
      const CpuIsa& isa = *kb.isa(i);
      out += fmt::format("- `{}` ({}): {}{}\n", isa.name, fmt::join(isa.flags, " "), fmt::join(isa.examples, "; "),
                         isa.notes.empty() ? "" : ". " + isa.notes);
    }
  }
  out += "\n";
}

}  // namespace

std::string branch_readme(const Spec& spec, const Matrix& m, const std::vector<BuildSettings>& settings,
                          const KnowledgeBase& kb) {
  std::string out = fmt::format("# {} — branch {}\n\n", comment_text(spec.product), comment_text(spec.name));
  if (!spec.summary.empty()) out += spec.summary + "\n\n";
  std::map<Accelerator, int> by_accelerator;
  for (const auto& v : m.variants) by_accelerator[kb.backend(v.backend)->accelerator]++;
  out += fmt::format(
      "{} variants: {} CUDA, {} CPU-only, {} Darwin/MPS. Recipes live in `.flox/pkgs/`; the full list is "
      "in [BUILD_MATRIX.md](BUILD_MATRIX.md).\n\n",
      m.variants.size(), by_accelerator[Accelerator::cuda], by_accelerator[Accelerator::none],
      by_accelerator[Accelerator::metal]);
  out += "## Versions\n\n";
  versions_table(out, spec, m, kb);

  coverage(out, m, kb);
  out += "## Variants\n\n| GPU architecture | CPU ISA | Package | Primary use case |\n|---|---|---|---|\n";
  for (const auto& s : settings) {
    const Variant& v = s.variant;
    std::string gpu = "—", use;
    const CpuIsa* isa = v.isa.empty() ? nullptr : kb.isa(v.isa);
    const BackendDef& backend = *kb.backend(v.backend);
    const Accelerator accelerator = backend.accelerator;
    if (!backend.use_case.empty()) use = backend.use_case;
    if (accelerator == Accelerator::cuda && !v.sm_set.empty()) {
      gpu = fmt::format("SM set {} ({}), CUDA {}", v.sm, fmt::join(v.sm_set, ", "), v.cuda);
      if (use.empty()) use = fmt::format("any GPU of SM {} + {}", fmt::join(v.sm_set, ", "), isa->use_case);
    } else if (accelerator == Accelerator::cuda) {
      const GpuArch& g = *kb.gpu(v.sm);
      gpu = fmt::format("{} ({}), CUDA {}", g.display(), g.family, v.cuda);
      if (use.empty())
        use =
            fmt::format("{} + {}",
                        fmt::join(std::vector<std::string>(g.products.begin(),
                                                           g.products.begin() + std::min<size_t>(2, g.products.size())),
                                  "/"),
                        isa->use_case);
    } else if (accelerator == Accelerator::none) {
      gpu = "CPU-only";
      if (use.empty()) use = isa->use_case;
    } else {
      gpu = "Apple Silicon (MPS)";
    }
    out += fmt::format("| {} | {} | {} | {} |\n", gpu, isa ? isa->display : "—", code(v.name), use);
  }

  out += "\n## Which variant do I need?\n\n";
  out += "`tailor recommend` answers this from the machine itself. By hand:\n\n";
  out += "1. **macOS on Apple Silicon** → the `darwin-mps` variant, if this branch has one.\n";
  out +=
      "2. **NVIDIA GPU?** Find its compute capability: `nvidia-smi --query-gpu=name,compute_cap,driver_version "
      "--format=csv,noheader`.\n\n";
  out += "   | Compute capability | Architecture | GPUs | Variants here |\n   |---|---|---|---|\n";
  for (const auto& sm : distinct(m, &Variant::sm)) {
    int n = 0;
    for (const auto& v : m.variants) n += v.sm == sm;
    if (std::vector<std::string> set = set_of(m, sm); !set.empty()) {  // one build for several SMs
      out += fmt::format("   | {} | SM set {} | any GPU of these SMs | {} |\n", fmt::join(set, ", "), sm, n);
      continue;
    }
    const GpuArch& g = *kb.gpu(sm);
    out += fmt::format("   | {} | {} ({}) | {} | {} |\n", sm, g.display(), g.family, product_list(g), n);
  }
  out += "\n3. **Driver.** The variant's CUDA toolkit needs at least this NVIDIA driver (NVIDIA's release notes):\n\n";
  for (const auto& c : distinct(m, &Variant::cuda)) {
    const CudaToolkit& t = *kb.cuda(c);
    if (!t.min_driver) {
      out +=
          fmt::format("   - CUDA {}: driver {}+ through minor-version compatibility (its GA minimum is not recorded)\n",
                      c, t.lowest_driver()->str());
      continue;
    }
    out += fmt::format("   - CUDA {}: driver {}+{}\n", c, t.min_driver->str(),
                       t.minor_compat_driver
                           ? fmt::format(" (minor-version compatibility from {}, without PTX JIT of newer PTX)",
                                         t.minor_compat_driver->str())
                           : std::string());
  }
  out +=
      "\n4. **CPU instruction set.** Pick the most capable ISA whose features your CPU has all of; a binary built "
      "for a feature the CPU lacks dies with SIGILL.\n\n";
  out += "   | ISA | Needs (all of) | Check | Typical CPUs |\n   |---|---|---|---|\n";
  for (const auto& name : distinct(m, &Variant::isa)) {
    const CpuIsa& i = *kb.isa(name);
    std::vector<std::string> checks;
    for (const auto& f : i.requires_features) checks.push_back(fmt::format("grep -qw {} /proc/cpuinfo", f));
    if (i.baseline()) {  // no targeting: any CPU of the platform
      out += fmt::format("   | {} | nothing | — | {} |\n", code(i.name), fmt::join(i.examples, "; "));
      continue;
    }
    out += fmt::format("   | {} | {} | `{}` | {} |\n", code(i.name), fmt::join(i.requires_features, " "),
                       fmt::join(checks, " && "), fmt::join(i.examples, "; "));
  }
  out += "\n## Build and install\n\n```sh\nflox build <variant>     # e.g. flox build " +
         (m.variants.empty() ? std::string("...") : m.variants.front().name) +
         "\nflox publish -o <org> <variant>\nflox install <org>/<variant>\n```\n\n";
  out += "Builds adapt their parallelism to the builder: jobs = min(cores, available memory / " +
         std::to_string(spec.build.gb_per_job) +
         " GB). Each result carries `$out/nix-support/tailor-variant.json`, which `tailor verify` reads.\n\n";
  out += fmt::format("Generated by tailor from {}. Change the spec and run `tailor generate`, not this file.\n",
                     code(spec.shown()));
  return out;
}

std::string build_matrix_doc(const Spec& spec, const Matrix& m, const KnowledgeBase& kb) {
  std::string out = fmt::format("# Build matrix — {} ({})\n\n", comment_text(spec.name), comment_text(spec.product));
  out += fmt::format("{} variants, {} combinations dropped.\n\n", m.variants.size(), m.dropped.size());
  std::vector<std::string> sms = distinct(m, &Variant::sm), isas = distinct(m, &Variant::isa);
  if (!sms.empty()) {
    out += "## SM × ISA (variants per cell)\n\n| SM |";
    for (const auto& i : isas) out += " " + i + " |";
    out += "\n|---|";
    for (size_t i = 0; i < isas.size(); ++i) out += "---|";
    out += "\n";
    for (const auto& sm : sms) {
      out += "| " + (set_of(m, sm).empty() ? kb.gpu(sm)->display() : "SM set " + sm) + " |";
      for (const auto& i : isas) {
        int n = 0;
        for (const auto& v : m.variants) n += v.sm == sm && v.isa == i;
        out += n ? fmt::format(" {} |", n) : " — |";
      }
      out += "\n";
    }
    out += "\n";
  }
  out +=
      "## Variants\n\n| Name | Package | Python | CUDA | SM | ISA | Platform | nixpkgs "
      "|\n|---|---|---|---|---|---|---|---|\n";
  auto dash = [](const std::string& s) { return s.empty() ? std::string("—") : s; };
  for (const auto& v : m.variants)
    out += fmt::format("| `{}` | {} | {} | {} | {} | {} | {} | {} |\n", v.name, v.package, dash(v.python), dash(v.cuda),
                       dash(v.sm), dash(v.isa), v.platform, v.pin);
  if (!m.dropped.empty()) {
    out += "\n## Dropped combinations\n\n| Would be | Rule | Why |\n|---|---|---|\n";
    for (const auto& d : m.dropped)
      out += fmt::format("| {} | {} | {} |\n", markdown_cell(code(d.candidate.name)), markdown_cell(d.rule),
                         markdown_cell(d.reason));
  }
  out += fmt::format("\nGenerated by tailor from {}.\n", code(spec.shown()));
  return out;
}

}  // namespace tailor
