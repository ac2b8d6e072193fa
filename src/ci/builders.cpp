#include "ci/builders.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/platform.hpp"
#include "util/diagnostic.hpp"
#include "util/quote.hpp"

namespace tailor {

namespace {
// "x86_64-linux or aarch64-linux": the systems a remote builder may have (platforms.toml).
std::string builder_systems(const PlatformTable& platforms) {
  std::vector<std::string> systems;
  for (const auto& p : platforms.platforms)
    if (p.remote_builder) systems.push_back(p.system);
  return fmt::format("{}", fmt::join(systems, " or "));
}
}  // namespace

BuilderHost parse_builder_host(const std::string& text, const PlatformTable& platforms) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t c = text.find(':', start);
    parts.push_back(text.substr(start, c == std::string::npos ? std::string::npos : c - start));
    if (c == std::string::npos) break;
    start = c + 1;
  }
  auto bad = [&](const std::string& why) {
    Diagnostic d;
    d.message = fmt::format("builder '{}': {}", text, why);
    d.hint = "write USER@HOST:SYSTEM:CORES:MEMORY_GB, e.g. ci@gpu1:x86_64-linux:64:512";
    return DiagnosticError(d);
  };
  if (parts.size() != 4) throw bad("expected 4 fields separated by ':'");
  BuilderHost h;
  h.uri = parts[0].starts_with("ssh") ? parts[0] : "ssh-ng://" + parts[0];
  h.system = parts[1];
  // The machines file separates fields by blanks; the NixOS snippet quotes the host.
  for (char c : parts[0])
    if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f || c == '"' || c == '\\' || c == '\'' || c == '$')
      throw bad("the host holds a blank, a quote, a backslash, a '$' or a control character");
  if (const Platform* p = platforms.find(h.system); !p || !p->remote_builder)
    throw bad("system must be " + builder_systems(platforms));
  auto whole = [](const std::string& s) {  // 1 to 1000000, all of the field ("64x" is not 64)
    bool digits = !s.empty() && s.size() <= 7 && s.find_first_not_of("0123456789") == std::string::npos;
    int n = digits ? std::stoi(s) : 0;
    return n >= 1 && n <= 1'000'000 ? n : 0;
  };
  h.cores = whole(parts[2]);
  h.memory_gb = whole(parts[3]);
  if (!h.cores || !h.memory_gb) throw bad("cores and memory (GB) must be whole numbers from 1 to 1000000");
  return h;
}

std::string machines_line(const BuilderHost& h) {
  return fmt::format("{} {} - {} 1 {} -\n", h.uri, h.system, kBuilderMaxJobs, fmt::join(kBuilderFeatures, ","));
}

int build_cores(const BuilderHost& h, int gb_per_job) {
  return std::min(h.cores, std::max(1, h.memory_gb / gb_per_job));
}

std::string builders_text(const std::vector<BuilderHost>& hosts, int gb_per_job) {
  std::string machines, nixos;
  for (const auto& h : hosts) {
    machines += machines_line(h);
    nixos += fmt::format(
        "  {{\n    hostName = {};\n    protocol = \"ssh-ng\";\n    system = {};\n    maxJobs = 1;\n"
        "    speedFactor = 1;\n    supportedFeatures = [ \"big-parallel\" \"kvm\" \"nixos-test\" ];\n  }}\n",
        nix_string(h.uri.substr(h.uri.find("://") + 3)), nix_string(h.system));
  }
  std::string out = "# /etc/nix/machines (or nix build --builders @/etc/nix/machines)\n" + machines;
  out += "\n# NixOS: nix.buildMachines = [\n" + nixos + "# ];\n";
  out += "\n# On each builder, in /etc/nix/nix.conf:\n";
  for (const auto& h : hosts) {
    out += fmt::format("#   {}: max-jobs = 1, cores = {}  ({} cores, {} GB / {} GB per nvcc job = {})\n", h.uri,
                       build_cores(h, gb_per_job), h.cores, h.memory_gb, gb_per_job,
                       std::max(1, h.memory_gb / gb_per_job));
  }
  out += fmt::format(
      "#\n# Why: nvcc units of CUTLASS/FlashAttention take 3-8 GB each. `cores` is NIX_BUILD_CORES,\n"
      "# the parallelism inside one build; tailor's recipes lower it further at build time to\n"
      "# MemAvailable / {} GB. `max-jobs = 1` keeps two such builds from sharing one machine's\n"
      "# memory. The recipes require `big-parallel`, so they only go to machines listed here.\n",
      gb_per_job);
  return out;
}

}  // namespace tailor
