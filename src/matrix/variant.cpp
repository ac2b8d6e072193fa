#include "matrix/variant.hpp"

#include <fmt/format.h>

namespace tailor {

std::string variant_name_from_tokens(Package package, Backend backend, std::string_view python_token,
                                     std::string_view cuda_token, std::string_view sm_token, std::string_view isa) {
  std::string name(package_name(package));
  name.reserve(48);
  if (package != Package::magma) (name += '-') += python_token;
  switch (backend) {
    case Backend::cuda: (((((name += '-') += cuda_token) += '-') += sm_token) += '-') += isa; break;
    case Backend::cpu: (name += "-cpu-") += isa; break;
    case Backend::mps: name += "-darwin-mps"; break;
  }
  return name;
}

std::string variant_name(const Variant& v, const KnowledgeBase& kb) {
  const PythonVersion* py = kb.python(v.python);
  const CudaToolkit* c = kb.cuda(v.cuda);
  const GpuArch* g = kb.gpu(v.sm);
  return variant_name_from_tokens(v.package, v.backend, py ? py->name_token() : "python" + v.python,
                                  c ? c->name_token() : "cuda" + v.cuda, g ? g->name_token() : "sm" + v.sm, v.isa);
}

}  // namespace tailor

namespace tailor {

namespace {
std::vector<std::string> split_dashes(std::string_view s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t d = s.find('-', start);
    out.emplace_back(s.substr(start, d == std::string_view::npos ? std::string_view::npos : d - start));
    if (d == std::string_view::npos) break;
    start = d + 1;
  }
  return out;
}
}  // namespace

std::optional<Variant> parse_variant_name(std::string_view name, const KnowledgeBase& kb, std::string& problem) {
  std::vector<std::string> t = split_dashes(name);
  Variant v;
  size_t i = 0;
  auto package = package_from_name(t[i]);
  if (!package) {
    problem = fmt::format("'{}' is not a package tailor builds (pytorch, torchvision, torchaudio, vllm, magma)", t[i]);
    return std::nullopt;
  }
  v.package = *package;
  ++i;
  if (v.package != Package::magma) {
    if (i >= t.size() || !t[i].starts_with("python")) {
      problem = fmt::format("expected a Python token like 'python313' after '{}'", t[0]);
      return std::nullopt;
    }
    for (const auto& p : kb.pythons)
      if (p.name_token() == t[i]) v.python = p.version;
    if (v.python.empty()) {
      problem = fmt::format("'{}' is not a Python version of the knowledge base", t[i]);
      return std::nullopt;
    }
    ++i;
  }
  auto need = [&](const char* what) {
    if (i < t.size()) return true;
    problem = fmt::format("the name ends before its {}", what);
    return false;
  };
  if (!need("backend (cudaX_Y, cpu or darwin)")) return std::nullopt;
  if (t[i] == "darwin") {
    v.backend = Backend::mps;
    if (i + 1 >= t.size() || t[i + 1] != "mps") {
      problem = "'darwin' must be followed by 'mps'";
      return std::nullopt;
    }
    i += 2;
  } else {
    if (t[i] == "cpu") {
      v.backend = Backend::cpu;
      ++i;
    } else {
      v.backend = Backend::cuda;
      for (const auto& c : kb.cudas)
        if (c.name_token() == t[i]) v.cuda = c.version.str();
      if (v.cuda.empty()) {
        problem = fmt::format("'{}' is not 'cpu', 'darwin' or a CUDA toolkit of the knowledge base (like cuda12_9)", t[i]);
        return std::nullopt;
      }
      ++i;
      if (!need("SM token (like sm90)")) return std::nullopt;
      for (const auto& g : kb.gpus)
        if (g.name_token() == t[i]) v.sm = g.sm;
      if (v.sm.empty()) {
        problem = fmt::format("'{}' is not an SM of the knowledge base (like sm90)", t[i]);
        return std::nullopt;
      }
      ++i;
    }
    if (!need("ISA token (like avx512)")) return std::nullopt;
    const CpuIsa* isa = kb.isa(t[i]);
    if (!isa) {
      problem = fmt::format("'{}' is not an ISA of the knowledge base", t[i]);
      return std::nullopt;
    }
    v.isa = isa->name;
    v.platform = isa->platform;
    ++i;
  }
  if (v.backend == Backend::mps) v.platform = "aarch64-darwin";
  if (i != t.size()) {
    problem = fmt::format("unexpected '{}' at the end of the name", t[i]);
    return std::nullopt;
  }
  v.name = std::string(name);
  return v;
}

}  // namespace tailor
