#include "host/host_file.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "host/gpu_spec.hpp"
#include "util/diagnostic.hpp"
#include "util/edit_distance.hpp"
#include "util/file_error.hpp"
#include "util/read_file.hpp"
#include "util/text_position.hpp"

namespace tailor {

namespace {

using nlohmann::json;

[[noreturn]] void fail(std::string_view source, std::string message, std::string hint = {}) {
  throw_file_error(source, std::move(message),
                   hint.empty() ? "write it with 'tailor detect --json > FILE' on the machine" : std::move(hint));
}

std::string string_at(const json& j, const char* key, std::string_view source, std::string_view where) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return {};
  if (!it->is_string()) fail(source, fmt::format("{}.{} must be a string", where, key));
  return it->get<std::string>();
}

CpuInfo read_cpu(const json& root, std::string_view source) {
  auto c = root.find("cpu");
  if (c == root.end() || !c->is_object()) fail(source, "no \"cpu\" object: not 'tailor detect --json' output");
  CpuInfo cpu;
  cpu.arch = string_at(*c, "arch", source, "cpu");
  if (cpu.arch.empty()) fail(source, "cpu.arch is missing");
  cpu.vendor = string_at(*c, "vendor", source, "cpu");
  cpu.model = string_at(*c, "model", source, "cpu");
  auto f = c->find("features");
  if (f == c->end() || !f->is_array()) fail(source, "cpu.features must be an array of feature names");
  for (const auto& x : *f) {
    if (!x.is_string()) fail(source, "cpu.features must be an array of feature names");
    cpu.features.insert(x.get<std::string>());
  }
  cpu.source = std::string(source);
  return cpu;
}

GpuReport read_gpus(const json& root, std::string_view source) {
  GpuReport r;
  r.source = std::string(source);
  auto g = root.find("gpus");
  if (g == root.end() || g->is_null()) return r;
  if (!g->is_array()) fail(source, "gpus must be an array");
  for (const auto& x : *g) {
    if (!x.is_object()) fail(source, "each entry of gpus must be an object");
    GpuInfo info;
    if (auto i = x.find("index"); i != x.end() && i->is_number_integer()) {
      // get<int> would wrap a larger number silently.
      if (i->is_number_unsigned() && i->get<uint64_t>() <= 1000000)
        info.index = static_cast<int>(i->get<uint64_t>());
      else
        fail(source, fmt::format("gpus[].index {} is not a GPU index (0 to 1000000)", i->dump()));
    }
    info.name = string_at(x, "name", source, "gpus[]");
    info.sm = string_at(x, "sm", source, "gpus[]");
    info.driver = string_at(x, "driver", source, "gpus[]");
    if (info.sm.empty()) fail(source, fmt::format("GPU {} has no sm (compute capability)", info.index));
    if (r.driver.empty()) r.driver = info.driver;
    r.gpus.push_back(std::move(info));
  }
  return r;
}

}  // namespace

HostFacts parse_host_json(std::string_view text, std::string_view source, const KnowledgeBase& kb,
                          const HostTables& t) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    const Pos at = pos_at(text, e.byte == 0 ? 0 : e.byte - 1);
    std::string what = e.what();
    Diagnostic d = diagnostic_at(source, text, at, "not JSON: " + what.substr(what.rfind(": ") + 2));
    d.hint = "write it with 'tailor detect --json > FILE' on the machine";
    throw DiagnosticError(d);
  } catch (const json::exception& e) {
    // out_of_range 406 "number overflow parsing '1e400'": no byte offset, so
    // point at the first occurrence of the number it quotes.
    std::string what = e.what();
    std::string message = what.substr(what.find("] ") == std::string::npos ? 0 : what.find("] ") + 2);
    Pos pos{};
    size_t open = message.find('\''), close = message.rfind('\'');
    if (open != std::string::npos && close > open + 1)
      if (size_t at = text.find(message.substr(open + 1, close - open - 1)); at != std::string_view::npos) {
        pos = pos_at(text, at);
      }
    Diagnostic d = pos.line > 0 ? diagnostic_at(source, text, pos, "not usable JSON: " + message) : Diagnostic{};
    if (pos.line == 0) {
      d.path = std::string(source);
      d.message = "not usable JSON: " + message;
    }
    d.hint = "write it with 'tailor detect --json > FILE' on the machine";
    throw DiagnosticError(d);
  }
  if (!root.is_object()) fail(source, "not 'tailor detect --json' output: expected an object");
  std::string os_name = string_at(root, "os", source, "the host");
  std::optional<Os> os = os_name.empty() ? Os::gnu_linux : kOperatingSystems.parse(os_name);
  if (!os) fail(source, fmt::format("os '{}' is neither linux nor darwin", os_name));
  return make_host_facts(read_cpu(root, source), read_gpus(root, source), *os, kb, t);
}

HostFacts read_host_file(const std::string& path, const KnowledgeBase& kb, const HostTables& t) {
  return parse_host_json(read_file(path, "host file"), path, kb, t);
}

HostFacts host_from_targets(const std::string& sm, const std::string& isa_name, const KnowledgeBase& kb,
                            const HostTables& t) {
  const CpuIsa* isa = kb.isa(isa_name);
  if (!isa) {
    Diagnostic d;
    d.message = fmt::format("--isa {}: the knowledge base has no such ISA target", isa_name);
    d.hint = did_you_mean(isa_name, kb.isa_names());
    if (d.hint.empty()) d.hint = "'tailor kb' lists the ISA targets";
    throw DiagnosticError(d);
  }
  CpuInfo cpu;
  cpu.arch = isa->platform.substr(0, isa->platform.find('-'));
  // A CPU that runs a target runs the lower-ranked ones of its platform too (AVX-512 implies AVX2).
  for (const auto& other : kb.isas)
    if (&other == isa || (other.platform == isa->platform && other.rank < isa->rank))
      cpu.features.insert(other.requires_features.begin(), other.requires_features.end());
  cpu.source = "--isa " + isa_name;
  GpuReport gpu;
  if (!sm.empty()) gpu = parse_gpu_spec(sm, kb, t);
  gpu.source = sm.empty() ? "--isa without --sm: no GPU" : "--sm " + sm;
  const Platform* platform = kb.platform(isa->platform);  // an ISA's is a Linux one (invariants.cpp)
  return make_host_facts(std::move(cpu), std::move(gpu), platform ? platform->os : Os::gnu_linux, kb, t);
}

}  // namespace tailor
