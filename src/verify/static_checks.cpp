#include "verify/static_checks.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <span>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "binfmt/driver_choice.hpp"
#include "kb/knowledge_base.hpp"
#include "verify/store_refs.hpp"

namespace tailor {

namespace {

std::string summary(const std::vector<ArchTally>& t) {
  std::string s;
  for (const auto& x : t)
    s += fmt::format("{}{} ({} {})", s.empty() ? "" : ", ", x.arch, x.count,
                     x.kind == FatbinKind::ptx ? "PTX" : "cubins");
  return s;
}

// The promise's SMs (one, or every SM of its set) as numbers, or the first that is no
// compute capability.
struct PromisedSms {
  std::vector<std::string> sms;
  std::vector<uint32_t> numbers;
  std::optional<std::string> bad;
};
PromisedSms promised_sms(const VariantPromise& p) {
  PromisedSms out;
  out.sms = p.sm_set.empty() ? std::vector<std::string>{p.sm} : p.sm_set;
  for (const auto& x : out.sms) {
    std::optional<uint32_t> sm = parse_sm_target(x);
    if (!sm) {
      out.bad = x;
      break;
    }
    out.numbers.push_back(*sm);
  }
  return out;
}

std::vector<GpuTarget> targets_of(const KnowledgeBase& kb, const std::vector<uint32_t>& numbers) {
  std::vector<GpuTarget> targets;
  for (uint32_t n : numbers) targets.push_back(gpu_for(kb, static_cast<int>(n / 10), static_cast<int>(n % 10)));
  return targets;
}

// Calls \a fn(entries, relocatable) for each container of \a f (its entries lie together).
template <class Fn>
void for_each_container(const FileInspection& f, Fn&& fn) {
  for (size_t a = 0; a < f.entries.size();) {
    size_t b = a;
    while (b < f.entries.size() && f.entries[b].container == f.entries[a].container) ++b;
    const size_t number = f.entries[a].container;
    fn(std::span<const FatbinEntry>(f.entries.data() + a, b - a),
       number < f.relocatable.size() && f.relocatable[number]);
    a = b;
  }
}

Check machine_check(const KnowledgeBase& kb, const VariantPromise& p, const Inspection& in) {
  Check c{"elf-machine", CheckStatus::ok, ""};
  const Platform* platform = kb.platform(p.platform);
  std::optional<uint16_t> want = platform ? platform->elf_machine : std::nullopt;
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

std::vector<Check> cuda_checks(const KnowledgeBase& kb, const VariantPromise& p, const Inspection& in) {
  std::vector<Check> out;
  std::vector<FatbinEntry> entries = in.all_entries();
  if (p.accelerator != Accelerator::cuda) {
    if (entries.empty() && in.fatbin_bytes() == 0)
      out.push_back(
          {"no-fatbins", CheckStatus::ok, fmt::format("a {} variant, and no file carries CUDA code", p.backend)});
    else
      out.push_back({"no-fatbins", CheckStatus::failed,
                     fmt::format("a {} variant carries CUDA fatbins: {}", p.backend, summary(tally(entries)))});
    return out;
  }
  // One SM, or every SM of a set: the driver's choice is kept for each of its GPUs.
  const PromisedSms promised = promised_sms(p);
  std::string label =
      p.sm_set.empty() ? "SM " + p.sm : fmt::format("SM set '{}' ({})", p.sm, fmt::join(promised.sms, ", "));
  if (promised.bad) {
    out.push_back({"fatbin-sm", CheckStatus::failed,
                   fmt::format("the variant's SM '{}' is not a compute capability", *promised.bad)});
    return out;
  }
  const std::vector<uint32_t>& numbers = promised.numbers;
  const std::vector<GpuTarget> targets = targets_of(kb, numbers);
  // Per container, the driver's choice for these GPUs (binfmt/driver_choice.hpp,
  // what prune keeps): entries outside it are code they never load.
  // Entries the choice keeps beyond the variant's own SMs (PTX where no cubin
  // fits, a cubin of a lower minor) and containers with nothing for them
  // (which prune cuts to one entry, or their NVVM IR) are named, not failed.
  // Relocatable device code (__nv_relfatbin) keeps its PTX beside the SASS, as prune
  // does: a device link cannot take a cubin of a lower minor. Named, not failed.
  std::vector<FatbinEntry> own, other, kept, foreign, linkable;
  size_t untouched = 0;
  for (const auto& f : in.files)
    for_each_container(f, [&](std::span<const FatbinEntry> box, bool relocatable) {
      ContainerChoice choice = choose_entries(box, targets, p.ptx || relocatable);
      untouched += choice.foreign_only;
      for (size_t i = 0; i < box.size(); ++i) {
        const FatbinEntry& e = box[i];
        bool mine = std::find(numbers.begin(), numbers.end(), e.arch) != numbers.end() &&
                    (e.kind == FatbinKind::sass || (e.kind == FatbinKind::ptx && p.ptx));
        if (choice.foreign_only)
          foreign.push_back(e);
        else if (!choice.keep[i])
          other.push_back(e);
        else if (relocatable && e.kind == FatbinKind::ptx && !p.ptx)
          linkable.push_back(e);
        else
          (mine ? own : kept).push_back(e);
      }
    });
  // SMs of the promise without a cubin of their own. A cubin the driver's choice
  // keeps that the GPU runs (kb/runs_on.hpp: an 8.9 GPU runs sm_86, and upstream
  // wheels carry no sm_89) is the code it loads, so it counts, named.
  std::vector<std::string> missing, runs_lower;
  auto sass_of = [](const std::vector<FatbinEntry>& from, auto pred) {
    return std::any_of(from.begin(), from.end(), [&](const auto& e) { return e.kind == FatbinKind::sass && pred(e); });
  };
  for (size_t i = 0; i < numbers.size(); ++i) {
    uint32_t n = numbers[i];
    if (sass_of(own, [&](const auto& e) { return e.arch == n; })) continue;
    if (sass_of(kept, [&](const auto& e) { return runs_on(e.code(), targets[i]); }))
      runs_lower.push_back(fmt::format("sm_{}", n));
    else
      missing.push_back(fmt::format("sm_{}", n));
  }
  if (missing.empty())
    out.push_back(
        {"fatbin-sm", CheckStatus::ok,
         fmt::format("{}: {}{}", label, own.empty() ? summary(tally(kept)) : summary(tally(own)),
                     runs_lower.empty() ? std::string()
                                        : fmt::format(" (no {} cubins: the same major's lower minor, which it runs)",
                                                      fmt::join(runs_lower, ", ")))});
  else
    out.push_back({"fatbin-sm", CheckStatus::failed,
                   entries.empty() ? fmt::format("no CUDA code at all: built CPU-only? ({} promised)", label)
                                   : fmt::format("no {} cubins; the fatbins carry {}", fmt::join(missing, ", "),
                                                 summary(tally(entries)))});
  std::string named;
  if (!kept.empty()) named += fmt::format("; kept as the driver's choice on {}: {}", label, summary(tally(kept)));
  if (!linkable.empty())
    named += fmt::format("; PTX of relocatable device code (__nv_relfatbin), kept for a device link: {}",
                         summary(tally(linkable)));
  if (untouched)
    named += fmt::format("; {} container{} with no code for {} (prune keeps one entry of each, or its NVVM IR): {}",
                         untouched, untouched == 1 ? "" : "s", label, summary(tally(foreign)));
  if (other.empty())
    out.push_back(
        {"fatbin-only-sm", CheckStatus::ok,
         (p.ptx ? fmt::format("nothing but {} and its PTX", label) : fmt::format("nothing but {}", label)) + named});
  else
    out.push_back({"fatbin-only-sm", CheckStatus::failed,
                   fmt::format("also carries {}, which a GPU of {} never loads{}{}", summary(tally(other)), label,
                               p.ptx ? "" : " (PTX only belongs in variants that ask for it)", named)});
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
          fmt::format("{} reference{} to {} toolchain path{} remain, e.g. {} in {}", refs.size(),
                      refs.size() == 1 ? "" : "s", paths.size(), paths.size() == 1 ? "" : "s", refs.front().path,
                      refs.front().file)};
}

}  // namespace

GpuTarget gpu_for(const KnowledgeBase& kb, int major, int minor) {
  const std::string sm = fmt::format("{}.{}", major, minor);
  const uint32_t number = static_cast<uint32_t>(major * 10 + minor);
  return any_gpu_target(kb, sm).value_or(GpuTarget{sm, number, {number}});
}

std::vector<FatbinEntry> promised_code(const KnowledgeBase& kb, const VariantPromise& p, const Inspection& in) {
  const PromisedSms promised = promised_sms(p);
  if (p.accelerator != Accelerator::cuda || (p.sm.empty() && p.sm_set.empty()) || promised.bad)
    return in.all_entries();  // a bad SM: fatbin-sm says so
  const std::vector<GpuTarget> targets = targets_of(kb, promised.numbers);
  std::vector<FatbinEntry> theirs;
  for (const auto& f : in.files)
    for_each_container(f, [&](std::span<const FatbinEntry> box, bool) {
      std::vector<FatbinEntry> entries(box.begin(), box.end());
      if (std::any_of(targets.begin(), targets.end(), [&](const GpuTarget& t) { return covers(entries, t); }))
        theirs.insert(theirs.end(), box.begin(), box.end());
    });
  return theirs;
}

bool covers(const std::vector<FatbinEntry>& entries, const GpuTarget& gpu) {
  return std::any_of(entries.begin(), entries.end(), [&](const FatbinEntry& e) {
    return (e.kind == FatbinKind::sass || e.kind == FatbinKind::ptx) && runs_on(e.code(), gpu);
  });
}

std::vector<Check> static_checks(const KnowledgeBase& kb, const VariantPromise& p, const Inspection& in,
                                 const std::filesystem::path& root) {
  std::vector<Check> out;
  out.push_back(machine_check(kb, p, in));
  for (auto& c : cuda_checks(kb, p, in)) out.push_back(std::move(c));
  out.push_back(toolchain_check(p, root));
  return out;
}

}  // namespace tailor
