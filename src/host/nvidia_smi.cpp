#include "host/nvidia_smi.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <utility>

#include <fmt/format.h>

#include "util/diagnostic.hpp"
#include "util/process.hpp"
#include "util/trim.hpp"
#include "util/version.hpp"

namespace tailor {

namespace {

[[noreturn]] void bad_line(std::string_view source, std::string_view text, int line, std::string why) {
  Diagnostic d = diagnostic_at(source, text, Pos{line, 1}, std::move(why));
  d.hint = fmt::format("expected the answer of: {}", kNvidiaSmiQuery);
  throw DiagnosticError(std::move(d));
}

std::optional<uint64_t> parse_mib(std::string_view s) {
  s = trim(s);
  if (s.ends_with("MiB")) s = trim(s.substr(0, s.size() - 3));
  if (s.empty() || s.size() > 12) return std::nullopt;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  return v;
}

}  // namespace

std::vector<GpuInfo> parse_nvidia_smi_csv(std::string_view text, std::string_view source) {
  std::vector<GpuInfo> gpus;
  if (text.find("No devices were found") != std::string_view::npos) return gpus;
  size_t pos = 0;
  int line_no = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    ++line_no;
    if (trim(line).empty()) continue;
    std::vector<std::string_view> f;
    size_t start = 0;
    while (true) {
      size_t comma = line.find(',', start);
      f.push_back(trim(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start)));
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    if (f.size() < 5)
      bad_line(source, text, line_no, fmt::format("expected 5 comma-separated fields, got {}", f.size()));
    // A name may itself contain commas: index first, the three numbers last.
    GpuInfo g;
    std::string_view index = f.front();
    if (index.empty() || index.size() > 4 ||
        !std::all_of(index.begin(), index.end(), [](char c) { return c >= '0' && c <= '9'; }))
      bad_line(source, text, line_no, fmt::format("GPU index '{}' is not a number", index));
    g.index = std::stoi(std::string(index));
    std::string name;
    for (size_t i = 1; i + 3 < f.size(); ++i) name += (i > 1 ? ", " : "") + std::string(f[i]);
    g.name = std::string(trim(name));
    std::string_view sm = f[f.size() - 3], driver = f[f.size() - 2];
    auto cc = Version::parse(sm);
    if (!cc || cc->size() != 2)
      bad_line(source, text, line_no, fmt::format("compute capability '{}' is not MAJOR.MINOR", sm));
    g.sm = std::string(sm);
    auto dv = Version::parse(driver);
    if (!dv) bad_line(source, text, line_no, fmt::format("driver version '{}' is not a version", driver));
    g.driver = std::string(driver);
    g.memory_mib = parse_mib(f.back());
    gpus.push_back(std::move(g));
  }
  return gpus;
}

std::optional<std::string> run_nvidia_smi() {
  ProcessSpec spec;
  std::istringstream words(kNvidiaSmiQuery);  // plain words: no quoting in it
  for (std::string w; words >> w;) spec.argv.push_back(w);
  spec.stderr_to = ErrorStream::discarded;
  ProcessResult r = system_processes().run(spec);
  if (!r.started || r.status != 0) return std::nullopt;
  return r.out;
}

}  // namespace tailor
