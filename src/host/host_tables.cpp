#include "host/host_tables.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include <fmt/format.h>

#include "util/diagnostic.hpp"
#include "util/embedded.hpp"
#include "util/product_name.hpp"
#include "util/read_file.hpp"
#include "util/toml_reader.hpp"

namespace tailor {

namespace {

constexpr const char* kFile = "host_features.toml";

std::vector<std::string> strings(TableReader& r, std::string_view key) {
  std::vector<std::string> out;
  if (auto list = r.strings(key))
    for (auto& s : *list) out.push_back(std::move(s.value));
  return out;
}

unsigned code(TableReader& r, std::string_view key) {
  auto v = r.required_integer(key);
  if (v.value < 0 || v.value > 0xfffff) throw r.doc().error_at(v.pos, fmt::format("'{}' is out of range", key));
  return static_cast<unsigned>(v.value);
}

int bit(TableReader& r, int bits) {
  auto v = r.required_integer("bit");
  if (v.value < 0 || v.value >= bits)
    throw r.doc().error_at(v.pos, fmt::format("bit {} is outside a {}-bit register", v.value, bits));
  return static_cast<int>(v.value);
}

// Reads the list \a key of \a root with \a read when the file has it.
template <class T, class Read>
void read_list(const TomlDocument& doc, TableReader& root, std::string_view key, Read read, std::vector<T>& into) {
  if (!root.node(key)) return;
  into.clear();
  for (const toml::table* t : root.tables(key)) {
    TableReader r(doc, *t, std::string(key));
    into.push_back(read(r));
    r.finish();
  }
}

CpuidBit read_cpuid(TableReader& r) {
  static const std::set<std::string> regs = {"1.ecx", "1.edx",   "7.ebx",          "7.ecx",
                                             "7.edx", "7.1.eax", "0x80000001.ecx", "0x80000001.edx"};
  CpuidBit b;
  b.feature = r.required_string("feature").value;
  auto reg = r.required_string("register");
  if (!regs.contains(reg.value))
    throw r.doc().error_at(reg.pos, fmt::format("unknown CPUID register '{}'", reg.value),
                           "registers: 1.ecx 1.edx 7.ebx 7.ecx 7.edx 7.1.eax 0x80000001.ecx 0x80000001.edx");
  b.reg = reg.value;
  b.bit = bit(r, 32);
  b.xsave = strings(r, "xsave");
  return b;
}

// A string that must be one of two words; true for the second.
bool either(TableReader& r, std::string_view key, std::string_view first, std::string_view second) {
  auto v = r.required_string(key);
  if (v.value != first && v.value != second)
    throw r.doc().error_at(v.pos, fmt::format("{} '{}' is neither '{}' nor '{}'", key, v.value, first, second));
  return v.value == second;
}

HwcapBit read_hwcap(TableReader& r) {
  HwcapBit b;
  b.feature = r.required_string("feature").value;
  b.hwcap2 = either(r, "word", "AT_HWCAP", "AT_HWCAP2");
  b.bit = bit(r, 64);
  return b;
}

std::pair<std::string, std::string> read_pair(TableReader& r, std::string_view from) {
  return {r.required_string(from).value, r.required_string("feature").value};
}

IntegratedSystem read_system(TableReader& r) {
  IntegratedSystem s;
  s.name = r.required_string("name").value;
  s.also_called = strings(r, "also_called");
  if (auto sm = r.string("gpu_sm")) s.gpu_sm = sm->value;
  s.os = either(r, "os", name_of(Os::gnu_linux), name_of(Os::darwin)) ? Os::darwin : Os::gnu_linux;
  s.arch = either(r, "arch", "x86_64", "aarch64") ? "aarch64" : "x86_64";
  s.cpu = r.required_string("cpu").value;
  s.features = strings(r, "features");
  s.source = r.required_string("source").value;
  return s;
}

void read_file(const std::string& path, std::string text, HostTables& t) {
  TomlDocument doc(path, std::move(text));
  TableReader root(doc, doc.root(), kFile);
  read_list(
      doc, root, "xsave_state",
      [](TableReader& r) {
        XsaveState s;
        s.name = r.required_string("name").value;
        s.xcr0_mask = static_cast<uint64_t>(r.required_integer("xcr0_mask").value);
        return s;
      },
      t.xsave_states);
  read_list(doc, root, "cpuid", read_cpuid, t.cpuid);
  read_list(doc, root, "hwcap", read_hwcap, t.hwcap);
  read_list(
      doc, root, "x86_64_level",
      [](TableReader& r) {
        return IsaLevel{r.required_string("name").value, strings(r, "features")};
      },
      t.x86_64_levels);
  read_list(
      doc, root, "arm_implementer",
      [](TableReader& r) {
        return ArmCode{0, code(r, "code"), r.required_string("name").value};
      },
      t.arm_implementers);
  read_list(
      doc, root, "arm_part",
      [](TableReader& r) {
        return ArmCode{code(r, "implementer"), code(r, "code"), r.required_string("name").value};
      },
      t.arm_parts);
  read_list(
      doc, root, "darwin_arm", [](TableReader& r) { return read_pair(r, "key"); }, t.darwin_arm);
  read_list(
      doc, root, "darwin_x86", [](TableReader& r) { return read_pair(r, "flag"); }, t.darwin_x86);
  read_list(doc, root, "system", read_system, t.systems);
  root.finish();
}

template <class T, class Key>
void no_duplicates(const std::vector<T>& list, const char* what, Key key, std::vector<std::string>& out) {
  std::set<std::string> seen;
  for (const auto& e : list)
    if (!seen.insert(key(e)).second) out.push_back(fmt::format("{}: duplicate {} '{}'", kFile, what, key(e)));
}

}  // namespace

HostTables HostTables::parse(const std::string& path, std::string text, HostTables base) {
  read_file(path, std::move(text), base);
  if (auto problems = check_invariants(base); !problems.empty()) {
    Diagnostic d;
    d.path = path;
    d.message = fmt::format("the host tables break {} invariant{}", problems.size(), problems.size() == 1 ? "" : "s");
    d.notes = problems;
    throw DiagnosticError(d);
  }
  return base;
}

HostTables HostTables::load(const std::optional<std::filesystem::path>& overlay_dir) {
  auto text = embedded_file(std::string("data/") + kFile);
  if (!text) throw std::logic_error(std::string("the binary lacks data/") + kFile);
  HostTables t = parse(std::string("data/") + kFile, std::string(*text));
  if (overlay_dir) {
    std::filesystem::path overlay = *overlay_dir / kFile;
    std::error_code ec;
    if (std::filesystem::exists(overlay, ec)) t = parse(overlay.string(), tailor::read_file(overlay), std::move(t));
  }
  return t;
}

const XsaveState* HostTables::xsave_state(std::string_view name) const {
  for (const auto& s : xsave_states)
    if (s.name == name) return &s;
  return nullptr;
}

const char* HostTables::implementer_name(unsigned c) const {
  for (const auto& i : arm_implementers)
    if (i.code == c) return i.name.c_str();
  return nullptr;
}

const char* HostTables::part_name(unsigned implementer, unsigned c) const {
  for (const auto& p : arm_parts)
    if (p.implementer == implementer && p.code == c) return p.name.c_str();
  return nullptr;
}

const IntegratedSystem* HostTables::system(std::string_view word) const {
  std::string key = product_key(word);
  for (const auto& s : systems) {
    if (product_key(s.name) == key) return &s;
    for (const auto& other : s.also_called)
      if (product_key(other) == key) return &s;
  }
  return nullptr;
}

std::vector<std::string> HostTables::system_names() const {
  std::vector<std::string> out;
  for (const auto& s : systems) out.push_back(s.name);
  return out;
}

std::vector<std::string> check_invariants(const HostTables& t) {
  std::vector<std::string> out;
  no_duplicates(
      t.xsave_states, "XSAVE state", [](const XsaveState& s) { return s.name; }, out);
  no_duplicates(
      t.cpuid, "CPUID feature", [](const CpuidBit& b) { return b.feature; }, out);
  no_duplicates(
      t.cpuid, "CPUID bit", [](const CpuidBit& b) { return b.reg + " bit " + std::to_string(b.bit); }, out);
  no_duplicates(
      t.hwcap, "HWCAP feature", [](const HwcapBit& b) { return b.feature; }, out);
  no_duplicates(
      t.hwcap, "HWCAP bit",
      [](const HwcapBit& b) {
        return std::string(b.hwcap2 ? "AT_HWCAP2" : "AT_HWCAP") + " bit " + std::to_string(b.bit);
      },
      out);
  no_duplicates(
      t.x86_64_levels, "x86-64 level", [](const IsaLevel& l) { return l.name; }, out);
  no_duplicates(
      t.arm_implementers, "ARM implementer", [](const ArmCode& c) { return fmt::format("{:#x}", c.code); }, out);
  no_duplicates(
      t.arm_parts, "ARM part", [](const ArmCode& c) { return fmt::format("{:#x}/{:#x}", c.implementer, c.code); }, out);
  std::set<std::string> cpuid, hwcap;
  for (const auto& b : t.cpuid) cpuid.insert(b.feature);
  for (const auto& b : t.hwcap) hwcap.insert(b.feature);
  for (const auto& s : t.xsave_states)
    if (s.xcr0_mask == 0) out.push_back(fmt::format("{}: XSAVE state '{}' has an empty XCR0 mask", kFile, s.name));
  for (const auto& b : t.cpuid)
    for (const auto& s : b.xsave)
      if (!t.xsave_state(s))
        out.push_back(fmt::format("{}: CPUID feature '{}' needs unknown XSAVE state '{}'", kFile, b.feature, s));
  // Levels, and the macOS names, can only speak of features the live
  // sources report: else a machine could never be seen to have them.
  for (const auto& l : t.x86_64_levels)
    for (const auto& f : l.features)
      if (!cpuid.contains(f))
        out.push_back(fmt::format("{}: x86-64 level {} needs '{}', which no CPUID bit reports", kFile, l.name, f));
  for (const auto& [key, f] : t.darwin_arm)
    if (!hwcap.contains(f))
      out.push_back(fmt::format("{}: sysctl {} maps to '{}', which is no HWCAP feature", kFile, key, f));
  for (const auto& [flag, f] : t.darwin_x86)
    if (!cpuid.contains(f))
      out.push_back(fmt::format("{}: machdep flag {} maps to '{}', which is no CPUID feature", kFile, flag, f));
  std::set<std::string> system_words;
  for (const auto& s : t.systems) {
    std::vector<std::string> words = s.also_called;
    words.push_back(s.name);
    for (const auto& w : words)
      if (!system_words.insert(product_key(w)).second)
        out.push_back(fmt::format("{}: two systems are called '{}'", kFile, w));
    // A system's features are read as a live source would report them.
    const auto& known = s.arch == "aarch64" ? hwcap : cpuid;
    for (const auto& f : s.features)
      if (!known.contains(f))
        out.push_back(fmt::format("{}: system {} lists '{}', which no {} source reports", kFile, s.name, f, s.arch));
    if (s.os == Os::darwin && !s.gpu_sm.empty())
      out.push_back(fmt::format("{}: system {} is a Mac with an NVIDIA GPU", kFile, s.name));
  }
  for (const auto& p : t.arm_parts)
    if (!t.implementer_name(p.implementer))
      out.push_back(fmt::format("{}: ARM part {} belongs to unknown implementer {:#x}", kFile, p.name, p.implementer));
  return out;
}

const HostTables& embedded_host_tables() {
  static const HostTables tables = HostTables::load();
  return tables;
}

}  // namespace tailor
