#include "kb/runs_on.hpp"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "kb/knowledge_base.hpp"

namespace tailor {

namespace {

std::optional<uint32_t> number_of(std::string_view digits) {
  if (digits.empty() || digits.size() > 4) return std::nullopt;
  uint32_t n = 0;
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc() || p != digits.data() + digits.size() || n < 10) return std::nullopt;
  return n;
}

char take_suffix(std::string_view& s) {
  if (!s.empty() && (s.back() == 'a' || s.back() == 'f')) {
    char c = s.back();
    s.remove_suffix(1);
    return c;
  }
  return '\0';
}

}  // namespace

std::optional<CudaCode> parse_sm(std::string_view s) {
  if (s.starts_with("sm_"))
    s.remove_prefix(3);
  else if (s.starts_with("sm"))
    s.remove_prefix(2);
  CudaCode c;
  c.suffix = take_suffix(s);
  std::string digits;
  size_t dot = s.find('.');
  if (dot != std::string_view::npos) {
    if (dot == 0 || dot + 2 != s.size()) return std::nullopt;  // "X.Y": one minor digit
    digits = fmt::format("{}{}", s.substr(0, dot), s.substr(dot + 1));
  } else {
    digits = std::string(s);
  }
  auto n = number_of(digits);
  if (!n) return std::nullopt;
  c.number = *n;
  return c;
}

std::optional<CudaCode> parse_cuda_code(std::string_view name) {
  CudaCode c;
  if (name.starts_with("sm_"))
    name.remove_prefix(3);
  else if (name.starts_with("compute_"))
    name.remove_prefix(8), c.ptx = true;
  else
    return std::nullopt;
  c.suffix = take_suffix(name);
  auto n = number_of(name);
  if (!n) return std::nullopt;
  c.number = *n;
  return c;
}

GpuTarget gpu_target(const GpuArch& gpu) {
  GpuTarget t;
  t.sm = gpu.sm;
  t.number = parse_sm(gpu.sm).value_or(CudaCode{}).number;
  for (const auto& f : gpu.runs_family_specific)
    if (auto n = parse_sm(f)) t.runs_family_specific.push_back(n->number);
  return t;
}

std::optional<GpuTarget> gpu_target(const KnowledgeBase& kb, std::string_view sm) {
  auto c = parse_sm(sm);
  if (!c || c->suffix) return std::nullopt;
  const GpuArch* gpu = kb.gpu(fmt::format("{}.{}", c->number / 10, c->number % 10));
  if (!gpu) return std::nullopt;
  return gpu_target(*gpu);
}

std::optional<GpuTarget> any_gpu_target(const KnowledgeBase& kb, std::string_view sm) {
  if (auto t = gpu_target(kb, sm)) return t;
  auto c = parse_sm(sm);
  if (!c || c->suffix) return std::nullopt;
  return GpuTarget{std::string(sm), c->number, {c->number}};
}

bool runs_on(const CudaCode& code, const GpuTarget& gpu) {
  switch (code.suffix) {
    case 'a': return code.number == gpu.number;
    // A family-specific target runs on the SMs whose data lists it, and on its
    // own SM wherever that SM has family-specific targets at all.
    case 'f':
      return (code.number == gpu.number && !gpu.runs_family_specific.empty()) ||
             std::find(gpu.runs_family_specific.begin(), gpu.runs_family_specific.end(), code.number) !=
                 gpu.runs_family_specific.end();
    default: return code.number <= gpu.number && (code.ptx || code.major() == gpu.major());
  }
}

}  // namespace tailor
