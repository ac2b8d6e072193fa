#include "host/host_json.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "util/text_table.hpp"

namespace tailor {

namespace {

nlohmann::json or_null(const std::string& s) { return s.empty() ? nlohmann::json() : nlohmann::json(s); }

}  // namespace

nlohmann::json to_json(const HostFacts& h) {
  nlohmann::json cpu = {
      {"arch", or_null(h.cpu.arch)},
      {"vendor", or_null(h.cpu.vendor)},
      {"model", or_null(h.cpu.model)},
      {"features", nlohmann::json(std::vector<std::string>(h.cpu.features.begin(), h.cpu.features.end()))},
      {"isas", h.isas},
      {"best_isa", or_null(h.best_isa)},
      {"x86_64_level", or_null(h.x86_64_level)},
  };
  nlohmann::json gpus = nlohmann::json::array();
  for (const auto& g : h.gpu.gpus)
    gpus.push_back({{"index", g.index},
                    {"name", or_null(g.name)},
                    {"sm", or_null(g.sm)},
                    {"driver", or_null(g.driver.empty() ? h.gpu.driver : g.driver)},
                    {"memory_mib", g.memory_mib ? nlohmann::json(*g.memory_mib) : nlohmann::json()}});
  // conda/pixi virtual packages (CEP 46 __cuda_arch, and __cuda) for this machine.
  nlohmann::json conda = {{"__cuda", or_null(h.conda_cuda)}, {"__cuda_arch", or_null(h.conda_cuda_arch)}};
  return {{"cpu", cpu}, {"gpus", gpus}, {"os", name_of(h.os)}, {"conda_virtual_packages", conda}};
}

std::string render_text(const HostFacts& h) {
  std::string out;
  auto dash = [](const std::string& s) { return s.empty() ? std::string("-") : s; };
  out += fmt::format("platform      {}\n", h.platform);
  out += fmt::format("cpu           {} {} ({})\n", dash(h.cpu.vendor), dash(h.cpu.model), dash(h.cpu.source));
  out += fmt::format("isa targets   {}\n",
                     h.isas.empty() ? "none of the knowledge base's" : fmt::format("{}", fmt::join(h.isas, " ")));
  out += fmt::format("best isa      {}\n", dash(h.best_isa));
  if (h.cpu.arch == "x86_64")
    out += fmt::format("x86-64 level  {}\n", h.x86_64_level.empty() ? "-" : "x86-64-" + h.x86_64_level);
  out += fmt::format("features      {}\n", fmt::join(h.cpu.features, " "));
  for (const auto& n : h.cpu.notes) out += fmt::format("note: {}\n", n);
  out += "\n";
  if (h.os == Os::darwin && h.cpu.arch == "aarch64") {
    out += "gpus          Apple silicon GPU (Metal/MPS)\n";
  } else if (h.gpu.gpus.empty()) {
    out += fmt::format("gpus          no NVIDIA GPU ({})\n", h.gpu.source);
    if (!h.gpu.driver.empty()) out += fmt::format("driver        {}\n", h.gpu.driver);
  } else {
    out += fmt::format("gpus          {} NVIDIA GPU{} ({}), driver {}\n", h.gpu.gpus.size(),
                       h.gpu.gpus.size() == 1 ? "" : "s", h.gpu.source, dash(h.gpu.driver));
    TextTable t({"index", "name", "sm", "memory"});
    for (const auto& g : h.gpu.gpus)
      t.add_row({std::to_string(g.index), dash(g.name), dash(g.sm),
                 g.memory_mib ? fmt::format("{} MiB", *g.memory_mib) : std::string("-")});
    out += t.render();
  }
  for (const auto& n : h.gpu.notes) out += fmt::format("note: {}\n", n);
  return out;
}

}  // namespace tailor
