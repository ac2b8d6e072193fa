#include "host/cpu_info.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "host/host_tables.hpp"
#include "util/diagnostic.hpp"
#include "util/trim.hpp"

namespace tailor {

namespace {

std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

void split_words(std::string_view s, std::set<std::string>& into) {
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    size_t j = i;
    while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j]))) ++j;
    if (j > i) into.emplace(s.substr(i, j - i));
    i = j;
  }
}

std::optional<unsigned> parse_code(std::string_view s) {
  s = trim(s);
  if (s.size() < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) return std::nullopt;
  unsigned v = 0;
  for (char c : s.substr(2)) {
    int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
            : (c >= 'a' && c <= 'f')                    ? c - 'a' + 10
            : (c >= 'A' && c <= 'F')                    ? c - 'A' + 10
                                                        : -1;
    if (d < 0 || v > 0xfffffu) return std::nullopt;
    v = v * 16 + static_cast<unsigned>(d);
  }
  return v;
}

}  // namespace

CpuInfo parse_cpuinfo(std::string_view text, std::string_view source, const HostTables& t) {
  CpuInfo cpu;
  cpu.source = std::string(source);
  std::string implementer, part;
  bool seen_processor = false, have_features = false;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      // A blank line ends the first processor block (the rest repeats it).
      if (trim(line).empty() && seen_processor && have_features) break;
      continue;
    }
    std::string_view key = trim(line.substr(0, colon));
    std::string_view value = trim(line.substr(colon + 1));
    if (key == "processor") {
      if (seen_processor && have_features) break;
      seen_processor = true;
    } else if (key == "flags" && !have_features) {
      cpu.arch = "x86_64";
      split_words(value, cpu.features);
      have_features = true;
    } else if (key == "Features" && !have_features) {
      cpu.arch = "aarch64";
      split_words(value, cpu.features);
      have_features = true;
    } else if (key == "vendor_id" && cpu.vendor.empty()) {
      cpu.vendor = std::string(value);
    } else if (key == "model name" && cpu.model.empty()) {
      cpu.model = std::string(value);
    } else if (key == "CPU implementer" && implementer.empty()) {
      implementer = std::string(value);
    } else if (key == "CPU part" && part.empty()) {
      part = std::string(value);
    }
  }
  if (!have_features) {
    Diagnostic d;
    d.path = std::string(source);
    d.message = "no 'flags' (x86_64) or 'Features' (aarch64) line: not a /proc/cpuinfo text";
    d.hint = "pass a copy of /proc/cpuinfo, or the output of 'sysctl -a' on macOS";
    throw DiagnosticError(std::move(d));
  }
  if (cpu.arch == "aarch64") {
    auto code = parse_code(implementer);
    if (code) {
      const char* name = t.implementer_name(*code);
      cpu.vendor = name ? name : implementer;
    } else if (cpu.vendor.empty()) {
      cpu.vendor = implementer;
    }
    if (cpu.model.empty() && !part.empty()) {
      auto part_code = parse_code(part);
      const char* name = code && part_code ? t.part_name(*code, *part_code) : nullptr;
      cpu.model = name ? fmt::format("{} ({})", name, part) : fmt::format("part {}", part);
    }
  }
  return cpu;
}

bool looks_like_sysctl(std::string_view text) {
  return text.find("hw.optional.") != std::string_view::npos ||
         text.find("machdep.cpu.brand_string") != std::string_view::npos;
}

namespace {

// Intel Macs list features in upper case, a few under other names.
std::string darwin_x86_name(std::string_view flag, const HostTables& t) {
  std::string n = lower(flag);
  for (const auto& [darwin, feature] : t.darwin_x86)
    if (n == darwin) return feature;
  std::replace(n.begin(), n.end(), '.', '_');
  return n;
}

}  // namespace

CpuInfo parse_sysctl(std::string_view text, std::string_view source, const HostTables& t) {
  CpuInfo cpu;
  cpu.source = std::string(source);
  bool any = false;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    // "key: value" (sysctl -a) or "key = value" (older sysctl)
    size_t sep = line.find(": ");
    if (sep == std::string_view::npos) sep = line.find(" = ");
    if (sep == std::string_view::npos) continue;
    std::string_view key = trim(line.substr(0, sep));
    std::string_view value = trim(line.substr(sep + 2));
    if (!value.empty() && value.front() == '=') value = trim(value.substr(1));
    if (key == "machdep.cpu.brand_string") {
      cpu.model = std::string(value);
      any = true;
    } else if (key == "machdep.cpu.vendor") {
      cpu.vendor = std::string(value);
    } else if (key == "hw.optional.arm64" && value == "1") {
      cpu.arch = "aarch64";
      any = true;
    } else if (key == "hw.optional.x86_64" && value == "1") {
      cpu.arch = "x86_64";
      any = true;
    } else if (key == "machdep.cpu.features" || key == "machdep.cpu.leaf7_features" ||
               key == "machdep.cpu.extfeatures") {
      std::set<std::string> words;
      split_words(value, words);
      for (const auto& w : words) cpu.features.insert(darwin_x86_name(w, t));
      if (cpu.arch.empty()) cpu.arch = "x86_64";
      any = true;
    } else if (key.starts_with("hw.optional.") && value == "1") {
      any = true;
      for (const auto& [name, feature] : t.darwin_arm)
        if (key == name) cpu.features.insert(feature);
    }
  }
  if (!any) {
    Diagnostic d;
    d.path = std::string(source);
    d.message = "no 'hw.optional' or 'machdep.cpu' keys: not the output of 'sysctl -a'";
    throw DiagnosticError(std::move(d));
  }
  if (cpu.arch.empty()) cpu.arch = cpu.model.starts_with("Apple") ? "aarch64" : "x86_64";
  if (cpu.vendor.empty() && cpu.arch == "aarch64") cpu.vendor = "Apple";
  return cpu;
}

}  // namespace tailor
