// tailor inspect PATH [--json] [--svg FILE] [--target 9.0]: what CUDA code a
// library, folder or wheel really carries, per architecture, without the CUDA
// toolkit (cuobjdump --list-elf takes seconds and gigabytes on torch).
#include <algorithm>
#include <map>
#include <ostream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/session.hpp"
#include "cli/wheel_limit_options.hpp"
#include "inspect/inspection.hpp"
#include "inspect/inspection_json.hpp"
#include "inspect/inspection_svg.hpp"
#include "util/atomic_write.hpp"
#include "util/diagnostic.hpp"
#include "util/exit_status.hpp"
#include "util/json_text.hpp"
#include "util/text_table.hpp"

namespace tailor {

namespace {

std::string percent(uint64_t part, uint64_t whole) {
  return whole ? fmt::format("{:.1f}%", 100.0 * static_cast<double>(part) / static_cast<double>(whole)) : "0.0%";
}

std::string arch_list(const std::vector<ArchTally>& tallies) {
  std::string s;
  for (const auto& t : tallies) s += (s.empty() ? "" : " ") + t.arch;
  return s.empty() ? "-" : s;
}

std::string compression_of(const ArchTally& t) {
  if (t.compressed == 0) return "none";
  if (t.compressed == t.count) return "all";
  return fmt::format("{} of {}", t.compressed, t.count);
}

void print_text(std::ostream& out, const Inspection& in, const std::optional<Projection>& projection) {
  if (!in.files.empty()) {
    TextTable files({"file", "machine", "size", "fatbins", "share", "sass", "ptx", "architectures"});
    for (const auto& f : in.files) {
      auto t = tally(f.entries);
      uint64_t sass = 0, ptx = 0;
      for (const auto& x : t) (x.kind == FatbinKind::ptx ? ptx : sass) += x.count;
      files.add_row({f.path.empty() ? in.root : f.path, f.machine, human_bytes(f.size),
                     f.fatbin_bytes ? human_bytes(f.fatbin_bytes) : "-", percent(f.fatbin_bytes, f.size),
                     std::to_string(sass), std::to_string(ptx), arch_list(t)});
    }
    out << files.render() << "\n";
  }
  auto all = tally(in.all_entries());
  if (!all.empty()) {
    TextTable arches({"architecture", "kind", "count", "stored", "uncompressed", "compressed", "share of fatbins"});
    for (const auto& t : all)
      arches.add_row({t.arch, std::string(fatbin_kind_name(t.kind)), std::to_string(t.count), human_bytes(t.bytes),
                      human_bytes(t.uncompressed_bytes), compression_of(t), percent(t.bytes, in.fatbin_bytes())});
    out << arches.render() << "\n";
  }
  uint64_t overhead = 0;
  for (const auto& f : in.files) overhead += f.fatbin_overhead;
  out << fmt::format(
      "{} ELF file{}, {}: {} in CUDA fatbins ({}; {} of it container headers and padding), {} outside them",
      in.files.size(), in.files.size() == 1 ? "" : "s", human_bytes(in.elf_bytes()), human_bytes(in.fatbin_bytes()),
      percent(in.fatbin_bytes(), in.elf_bytes()), human_bytes(overhead),
      human_bytes(in.elf_bytes() - in.fatbin_bytes()));
  if (in.other_files)
    out << fmt::format("; {} other file{}, {}", in.other_files, in.other_files == 1 ? "" : "s",
                       human_bytes(in.other_bytes));
  out << "\n";
  if (in.fatbin_bytes() == 0) out << "no CUDA code: a CPU-only build, or not a CUDA library\n";
  if (projection)
    out << fmt::format("a build for SM {} alone would keep {} of {}: {} ({:.2f} MB, {:.1f}%) less\n",
                       projection->target, human_bytes(projection->kept()), human_bytes(projection->total),
                       human_bytes(projection->dropped), static_cast<double>(projection->dropped) / 1e6,
                       projection->saving_percent());
}

struct InspectRun final : CommandRun {
  std::string path, svg, target;
  bool json = false;
  WheelLimits limits;
  std::vector<uint32_t> numbers;  ///< --target's SMs
  void define(CLI::App& app) override;
  void resolve(Session& s) override { numbers = target_numbers(s); }
  Input input() override { return {path}; }
  int run(Session& s) override;
  std::vector<uint32_t> target_numbers(Session& s) const;
};

void InspectRun::define(CLI::App& app) {
  app.description("Per-architecture composition and size of the CUDA fatbins in a .so, a folder or a wheel.");
  app.add_option("PATH", path, "a shared library, a directory (site-packages/torch, a Nix result) or a .whl")
      ->required();
  app.add_flag("--json", json, "print JSON");
  app.add_option("--svg", svg, "also write a bar chart of bytes per architecture to FILE")->type_name("FILE");
  app.add_option("--target", target,
                 "project the size of a build for this SM alone (9.0, sm_90), or for a set of SMs (8.0,9.0)")
      ->type_name("SM[,SM...]");
  add_wheel_limit_options(app, limits);
}

// --target: one SM, or each of a set ("8.0,9.0"), each a GPU architecture the knowledge base knows.
std::vector<uint32_t> InspectRun::target_numbers(Session& s) const {
  std::vector<uint32_t> numbers;  // one SM, or each of a set ("8.0,9.0")
  for (size_t at = 0; !target.empty() && at != std::string::npos;) {
    size_t comma = target.find(',', at);
    std::string one = target.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    at = comma == std::string::npos ? comma : comma + 1;
    std::optional<uint32_t> number = parse_sm_target(one);
    // A well-formed number is not enough: 9.5 names no GPU architecture.
    std::vector<std::string> known = s.facts().gpu_names();
    std::string sm = number ? fmt::format("{}.{}", *number / 10, *number % 10) : std::string();
    if (!number || std::find(known.begin(), known.end(), sm) == known.end()) {
      Diagnostic d;
      d.message =
          number ? fmt::format("inspect: --target '{}': SM {} is no GPU architecture the knowledge base knows", one, sm)
                 : fmt::format("inspect: --target '{}' is not a compute capability", one);
      d.hint = number ? fmt::format("known: {}", fmt::join(known, ", ")) : "write it as 9.0, sm_90 or 90";
      throw DiagnosticError(d);
    }
    if (std::find(numbers.begin(), numbers.end(), *number) == numbers.end()) numbers.push_back(*number);
  }
  return numbers;
}

int InspectRun::run(Session& s) {
  Inspection in = inspect_path(s.artifact(), limits);
  std::optional<Projection> projection;
  if (!numbers.empty()) projection = project(in, target, numbers);

  if (!svg.empty()) write_file_atomically(svg, to_svg(in));  // a failure names the file and the reason
  if (json)
    s.out << json_text(to_json(in, projection));
  else
    print_text(s.out, in, projection);
  for (const auto& d : in.broken) s.err << d.render();
  return in.broken.empty() ? kExitOk : kExitProblems;
}

}  // namespace

std::unique_ptr<CommandRun> make_inspect() { return std::make_unique<InspectRun>(); }

}  // namespace tailor
