#include "verify/static_checks.hpp"

#include <map>
#include <set>

#include <fmt/format.h>

#include "verify/store_refs.hpp"

namespace tailor {

namespace {

std::string summary(const std::vector<ArchTally>& t) {
  std::string s;
  for (const auto& x : t)
    s += fmt::format("{}{} ({} {})", s.empty() ? "" : ", ", x.arch, x.count, x.kind == FatbinKind::ptx ? "PTX" : "cubins");
  return s;
}

Check machine_check(const VariantPromise& p, const Inspection& in) {
  Check c{"elf-machine", CheckStatus::ok, ""};
  std::optional<uint16_t> want = elf_machine_for_platform(p.platform);
  if (!want) return {c.name, CheckStatus::skipped, fmt::format("{} binaries are not ELF; not checked", p.platform)};
  if (in.files.empty()) return {c.name, CheckStatus::skipped, "no ELF files found"};
  std::vector<std::string> wrong;
  for (const auto& f : in.files)
    if (f.e_machine != *want) wrong.push_back(fmt::format("{} is {}", f.path.empty() ? in.root : f.path, f.machine));
  if (!wrong.empty()) {
    c.status = CheckStatus::failed;
    c.detail = fmt::format("{} of {} ELF files are not {} (platform {}): {}", wrong.size(), in.files.size(),
                           elf_machine_name(*want), p.platform, wrong.front());
    return c;
  }
  c.detail = fmt::format("{} ELF file{}, all {} (platform {})", in.files.size(), in.files.size() == 1 ? "" : "s",
                         elf_machine_name(*want), p.platform);
  return c;
}

std::vector<Check> cuda_checks(const VariantPromise& p, const Inspection& in) {
  std::vector<Check> out;
  std::vector<FatbinEntry> entries = in.all_entries();
  if (p.backend != "cuda") {
    if (entries.empty() && in.fatbin_bytes() == 0)
      out.push_back({"no-fatbins", CheckStatus::ok, fmt::format("a {} variant, and no file carries CUDA code", p.backend)});
    else
      out.push_back({"no-fatbins", CheckStatus::failed,
                     fmt::format("a {} variant carries CUDA fatbins: {}", p.backend, summary(tally(entries)))});
    return out;
  }
  std::optional<uint32_t> sm = parse_sm_target(p.sm);
  if (!sm) {
    out.push_back({"fatbin-sm", CheckStatus::failed, fmt::format("the variant's SM '{}' is not a compute capability", p.sm)});
    return out;
  }
  std::vector<FatbinEntry> own, other;
  for (const auto& e : entries) {
    bool mine = e.arch == *sm && (e.kind == FatbinKind::sass || (e.kind == FatbinKind::ptx && p.ptx));
    (mine ? own : other).push_back(e);
  }
  bool has_sass = std::any_of(own.begin(), own.end(), [](const auto& e) { return e.kind == FatbinKind::sass; });
  if (has_sass)
    out.push_back({"fatbin-sm", CheckStatus::ok, fmt::format("SM {}: {}", p.sm, summary(tally(own)))});
  else
    out.push_back({"fatbin-sm", CheckStatus::failed,
                   entries.empty() ? fmt::format("no CUDA code at all: built CPU-only? (SM {} promised)", p.sm)
                                   : fmt::format("no sm_{} cubins; the fatbins carry {}", *sm, summary(tally(entries)))});
  if (other.empty())
    out.push_back({"fatbin-only-sm", CheckStatus::ok,
                   p.ptx ? fmt::format("nothing but SM {} and its PTX", p.sm) : fmt::format("nothing but SM {}", p.sm)});
  else
    out.push_back({"fatbin-only-sm", CheckStatus::failed,
                   fmt::format("also carries {}{}", summary(tally(other)),
                               p.ptx ? "" : " (PTX only belongs in variants that ask for it)")});
  return out;
}

Check toolchain_check(const VariantPromise& p, const std::filesystem::path& root) {
  const char* name = "toolchain-refs";
  if (!p.strip_toolchain) return {name, CheckStatus::skipped, "the variant does not ask for toolchain stripping"};
  std::vector<StoreRef> refs = find_toolchain_refs(root);
  if (refs.empty()) return {name, CheckStatus::ok, "no references to gcc or binutils store paths"};
  std::set<std::string> paths;
  for (const auto& r : refs) paths.insert(r.path);
  return {name, CheckStatus::failed,
          fmt::format("{} reference{} to {} toolchain path{} remain, e.g. {} in {}", refs.size(), refs.size() == 1 ? "" : "s",
                      paths.size(), paths.size() == 1 ? "" : "s", refs.front().path, refs.front().file)};
}

}  // namespace

bool covers(const std::vector<FatbinEntry>& entries, int major, int minor) {
  const uint32_t cap = static_cast<uint32_t>(major * 10 + minor);
  for (const auto& e : entries) {
    if (e.kind == FatbinKind::ptx && e.arch <= cap && e.suffix() == '\0') return true;
    if (e.kind != FatbinKind::sass) continue;
    if (e.suffix() == 'a') {
      if (e.arch == cap) return true;
    } else if (e.arch / 10 == static_cast<uint32_t>(major) && e.arch <= cap) {
      return true;
    }
  }
  return false;
}

std::vector<Check> static_checks(const VariantPromise& p, const Inspection& in, const std::filesystem::path& root) {
  std::vector<Check> out;
  out.push_back(machine_check(p, in));
  for (auto& c : cuda_checks(p, in)) out.push_back(std::move(c));
  out.push_back(toolchain_check(p, root));
  return out;
}

}  // namespace tailor
