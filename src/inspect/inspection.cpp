#include "inspect/inspection.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "binfmt/artifact.hpp"
#include "binfmt/wheel.hpp"
#include "util/diagnostic.hpp"

namespace tailor {

namespace {

// Sections that hold fatbins: linked executables and libraries carry
// .nv_fatbin; relocatable objects built with -rdc carry __nv_relfatbin.
constexpr std::string_view kFatbinSections[] = {".nv_fatbin", "__nv_relfatbin"};

void sort_files(Inspection& in) {
  std::sort(in.files.begin(), in.files.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
}

/// The walk's calls that fill \a in: ELF files inspected, other files counted, broken ones kept.
ElfVisitor filling(Inspection& in) {
  ElfVisitor v;
  v.elf = [&in](const std::string& rel, const ElfFile& elf) { in.files.push_back(inspect_elf(rel, elf)); };
  v.other = [&in](const std::string&, uint64_t size) {
    in.other_files++;
    in.other_bytes += size;
  };
  v.broken = [&in](const Diagnostic& why) { in.broken.push_back(why); };
  return v;
}

}  // namespace

std::vector<ArchTally> tally(const std::vector<FatbinEntry>& entries) {
  auto rank = [](FatbinKind k) {
    return k == FatbinKind::sass ? 0 : k == FatbinKind::ptx ? 1 : k == FatbinKind::nvvm ? 2 : 3;
  };
  auto key = [&](const FatbinEntry& e) { return std::tuple(e.arch, rank(e.kind), e.suffix()); };
  std::map<std::tuple<uint32_t, int, char>, ArchTally> by;
  for (const auto& e : entries) {
    ArchTally& t = by[key(e)];
    t.arch = e.arch_name();
    t.kind = e.kind;
    t.number = e.arch;
    t.suffix = e.suffix();
    t.count++;
    t.bytes += e.stored_bytes();
    t.uncompressed_bytes += e.header_size + e.uncompressed_size;
    if (e.compression != FatbinCompression::none) t.compressed++;
  }
  std::vector<ArchTally> out;
  for (auto& [k, t] : by) out.push_back(std::move(t));
  return out;
}

uint64_t Inspection::elf_bytes() const {
  uint64_t n = 0;
  for (const auto& f : files) n += f.size;
  return n;
}

uint64_t Inspection::fatbin_bytes() const {
  uint64_t n = 0;
  for (const auto& f : files) n += f.fatbin_bytes;
  return n;
}

std::vector<FatbinEntry> Inspection::all_entries() const {
  std::vector<FatbinEntry> all;
  for (const auto& f : files) all.insert(all.end(), f.entries.begin(), f.entries.end());
  return all;
}

std::optional<uint32_t> parse_sm_target(std::string_view t) {
  auto c = parse_sm(t);
  if (!c || c->suffix) return std::nullopt;
  return c->number;
}

std::string human_bytes(uint64_t n) {
  if (n < 1000) return fmt::format("{} B", n);
  const char* units[] = {"kB", "MB", "GB", "TB"};
  double v = static_cast<double>(n);
  int u = -1;
  while (v >= 1000 && u < 3) {
    v /= 1000;
    ++u;
  }
  return fmt::format("{:.1f} {}", v, units[u]);
}

Projection project(const Inspection& in, std::string_view target, uint32_t number) {
  return project(in, target, std::vector<uint32_t>{number});
}

Projection project(const Inspection& in, std::string_view target, const std::vector<uint32_t>& numbers) {
  Projection p;
  p.target = std::string(target);
  p.number = numbers.empty() ? 0 : numbers.front();
  p.numbers = numbers;
  p.total = in.total_bytes();
  for (const auto& f : in.files)
    for (const auto& e : f.entries)
      if (std::find(numbers.begin(), numbers.end(), e.arch) == numbers.end()) p.dropped += e.stored_bytes();
  return p;
}

FileInspection inspect_elf(std::string path, const ElfFile& elf) {
  FileInspection f;
  f.path = std::move(path);
  f.size = elf.size();
  f.e_machine = elf.machine;
  f.machine = elf_machine_name(elf.machine, elf.big_endian);
  f.bits = elf.bits;
  std::vector<const ElfSection*> seen;  // fatbin sections counted, by their file bytes
  for (const auto& s : elf.sections) {
    if (std::find(std::begin(kFatbinSections), std::end(kFatbinSections), s.name) == std::end(kFatbinSections))
      continue;
    WindowReader bytes = elf.section_reader(s);
    if (bytes.size() == 0) continue;
    // Two headers on one range are one set of bytes: counted once (linkers never
    // write this; a crafted file would otherwise show a share over 100%).
    auto same = [&](const ElfSection* o) { return o->offset == s.offset && o->size == s.size; };
    if (std::any_of(seen.begin(), seen.end(), same)) continue;
    for (const ElfSection* o : seen)
      if (s.offset < o->offset + o->size && o->offset < s.offset + s.size)
        throw_format_error(fmt::format("sections {} at offset {:#x} and {} at offset {:#x} overlap", o->name, o->offset,
                                       s.name, s.offset));
    seen.push_back(&s);
    std::optional<Fatbin> fb = try_open_fatbin(bytes);
    if (!fb)
      throw_format_error(fmt::format("section {} at offset {:#x} does not start with a fatbin container (magic {:#x})",
                                     s.name, s.offset, kFatbinMagic));
    f.fatbin_bytes += fb->size;
    f.fatbin_overhead += fb->overhead();
    for (auto e : fb->entries) {
      e.container += f.containers;  // numbered per file, across its sections
      f.entries.push_back(e);
    }
    f.containers += fb->containers.size();
    f.relocatable.resize(f.containers, s.name == "__nv_relfatbin");
  }
  return f;
}

Inspection inspect_bytes(std::string root, ByteSlice bytes, const WheelLimits& limits) {
  Inspection in;
  in.root = std::move(root);
  in.kind = "file";
  if (auto elf = try_open_elf(bytes)) {
    in.files.push_back(inspect_elf("", *elf));
    return in;
  }
  if (auto wheel = try_open_wheel(bytes, limits)) {
    in.kind = "wheel";
    for_each_elf(*wheel, in.root, filling(in));
    sort_files(in);
    return in;
  }
  in.other_files = 1;
  in.other_bytes = bytes.size();
  return in;
}

Inspection inspect_path(const std::filesystem::path& path, const WheelLimits& limits) {
  return inspect_path(open_artifact(path), limits);
}

Inspection inspect_path(const Artifact& a, const WheelLimits& limits) {
  const std::filesystem::path& path = a.path;
  Inspection in;
  in.root = path.string();
  ArtifactKind kind = for_each_elf(a, filling(in), limits, "tailor inspect");
  in.kind = std::string(kind_name(kind));
  if (kind == ArtifactKind::wheel) sort_files(in);
  if (kind == ArtifactKind::directory && in.files.empty() && in.broken.empty() && !in.other_files) {
    Diagnostic d;
    d.path = path.string();
    d.message = "the directory holds no files: nothing to inspect";
    throw DiagnosticError(std::move(d));
  }
  return in;
}

}  // namespace tailor
