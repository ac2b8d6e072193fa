// tailor prune PATH (--sm X[,Y] | --each X,Y+Z,...) [-o OUT | --in-place] [--variant-label L]
// [--dry-run] [--json] [--keep-ptx]: keep, per fatbin container, only the code the CUDA
// driver could load on the given GPUs (nvprune refuses linked libraries); --each writes
// one output per target from one pass over the input.
#include <algorithm>
#include <filesystem>
#include <optional>
#include <ostream>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/session.hpp"
#include "cli/wheel_limit_options.hpp"
#include "inspect/inspection.hpp"
#include "kb/runs_on.hpp"
#include "matrix/expand.hpp"
#include "matrix/spec_loader.hpp"
#include "prune/deflate_estimate.hpp"
#include "prune/parallel_deflate.hpp"
#include "prune/prune_path.hpp"
#include "prune/prune_record.hpp"
#include "util/diagnostic.hpp"
#include "util/exit_status.hpp"
#include "util/json_text.hpp"
#include "util/output_lock.hpp"
#include "util/text_table.hpp"

namespace tailor {

namespace {

std::string percent(uint64_t part, uint64_t whole) {
  return whole ? fmt::format("{:.1f}%", 100.0 * static_cast<double>(part) / static_cast<double>(whole)) : "-";
}

std::string arch_counts(const std::vector<ArchChange>& archs, bool kept) {
  std::string s;
  for (const auto& a : archs) {
    uint64_t n = kept ? a.kept : a.removed;
    if (n) s += fmt::format("{}{}×{}", s.empty() ? "" : " ", a.arch, n);
  }
  return s.empty() ? "-" : s;
}

std::string before_after(uint64_t before, uint64_t after) {
  return before ? fmt::format("{} → {}", human_bytes(before), human_bytes(after)) : "-";
}

void print_files(std::ostream& out, const PruneReport& r) {
  const bool wheel = r.kind == ArtifactKind::wheel;
  TextTable t({"file", "size", "fatbins", "removed", wheel ? "deflated" : "on disk", "kept", "removed entries"});
  for (const auto& f : r.files) {
    if (!f.refused.empty()) continue;
    t.add_row(
        {f.path.empty() ? r.root : f.path, human_bytes(f.size), human_bytes(f.fatbin_bytes),
         fmt::format("{} ({})", human_bytes(f.removed_bytes), percent(f.removed_bytes, f.size)),
         wheel ? before_after(f.compressed_before, f.compressed_after) : before_after(f.disk_before, f.disk_after),
         arch_counts(f.archs, true), arch_counts(f.archs, false)});
  }
  if (t.rows()) out << t.render() << "\n";
}

// The files it left as they were, as warnings.
void warn_refused(Session& s, const PruneReport& r) {
  for (const auto& f : r.files)
    if (!f.refused.empty()) s.warn("not pruned, left as it was: " + f.refused, f.path.empty() ? r.root : f.path);
}

void print_text(std::ostream& out, const PruneReport& r) {
  print_files(out, r);
  for (const auto& f : r.files) {
    std::string name = f.path.empty() ? r.root : f.path;
    if (f.refused.empty() && !f.compaction.empty())
      out << fmt::format("{}: kept its size (freed bytes {}): {}\n", name,
                         r.dry_run ? "would be zeros" : "left as zeros, holes where the file system allows",
                         f.compaction);
    if (f.note_header_reused)
      out << fmt::format(
          "{}: both fatbin sections cut out; its PT_NOTE program header is a PT_LOAD now, the build-id note "
          "found through its section only\n",
          name);
    if (f.untouched || f.reduced)
      out << fmt::format(
          "{}: nothing in {} of {} containers runs on SM {}: {} cut to their smallest entry, {} left as they were\n",
          name, f.untouched + f.reduced, f.containers, fmt::join(f.untouched_for, ", "), f.reduced, f.untouched);
  }
  uint64_t fatbins = 0, removed = 0;
  for (const auto& f : r.files) fatbins += f.fatbin_bytes, removed += f.removed_bytes;
  out << fmt::format("{} {} ELF file{} with fatbins for SM {} in {:.2f} s: {} of {} fatbin bytes removed ({})",
                     r.dry_run ? "would prune" : "pruned", r.files.size() - r.refused(),
                     r.files.size() - r.refused() == 1 ? "" : "s", fmt::join(r.sm, ", "), r.seconds,
                     human_bytes(removed), human_bytes(fatbins), percent(removed, fatbins));
  if (r.refused()) out << fmt::format("; {} refused", r.refused());
  if (!r.output.empty()) out << fmt::format("; written to {}", r.output);
  out << "\n";
  if (!r.record.empty()) out << fmt::format("record of what was removed (tailor verify reads it): {}\n", r.record);
  if (r.size_before() != r.size_after())
    out << fmt::format("apparent size of the libraries{}: {} → {} ({} cut out of the files)\n",
                       r.dry_run ? " (would be)" : "", human_bytes(r.size_before()), human_bytes(r.size_after()),
                       human_bytes(r.size_before() - r.size_after()));
  // A dry run writes nothing to deflate: what the removed entries take deflated, sampled.
  const std::string estimated =
      fmt::format("the removed entries deflated at zlib level {}, estimated from {} samples of {} per file",
                  kDeflateLevel, kEstimateSamples, human_bytes(kEstimateSample));
  if (r.dry_run && r.removed_deflated() && r.kind != ArtifactKind::wheel)
    out << fmt::format("deflated (a wheel, a compressed NAR or image layer): about {} less ({})\n",
                       human_bytes(r.removed_deflated()), estimated);
  if (r.disk_before)
    out << fmt::format("on disk: {} → {} ({} freed)\n", human_bytes(r.disk_before), human_bytes(r.disk_after),
                       human_bytes(r.disk_before > r.disk_after ? r.disk_before - r.disk_after : 0));
  if (r.kind == ArtifactKind::wheel && r.dry_run) {
    uint64_t less = std::min(r.removed_deflated(), r.compressed_before());
    out << fmt::format("deflated libraries (would be): {} → about {} ({})\n", human_bytes(r.compressed_before()),
                       human_bytes(r.compressed_before() - less), estimated);
  } else if (r.kind == ArtifactKind::wheel) {
    out << fmt::format(
        "deflated libraries: {} → {} (changed members deflated anew at zlib level {}, the others copied as stored)\n",
        human_bytes(r.compressed_before()), human_bytes(r.compressed_after()), r.deflate_level);
    if (r.download_after)
      out << fmt::format("download: {} → {} ({} less)\n", human_bytes(r.download_before), human_bytes(r.download_after),
                         percent(r.download_before - std::min(r.download_before, r.download_after), r.download_before));
  }
}

struct PruneRun final : CommandRun {
  std::string path, out, spec_arg, variant_label;
  std::vector<std::string> sms, each;
  bool in_place = false, dry_run = false, json = false, keep_ptx = false, no_compact = false, reuse_note_header = false;
  WheelLimits limits;
  std::vector<FanOutTarget> outputs;  ///< one (--sm), or one per --each target

  void define(CLI::App& app) override;
  void validate() override;
  void resolve(Session& s) override;
  Input input() override { return {path}; }
  int run(Session& s) override;
  std::unique_ptr<OutputLock> lock_output(Session& s) const;
  std::vector<std::string> target_sms(Session& s) const;
  std::vector<std::vector<std::string>> each_targets(Session& s) const;
  PruneOptions options() const;
  int report(Session& s, const PruneReport& report) const;
  int report_fan_out(Session& s, const FanOutReport& report) const;
  int run_fan_out(Session& s);
};

void PruneRun::define(CLI::App& app) {
  app.description("Keep only the CUDA code the given GPUs can load, in a .so, a folder or a wheel.");
  app.add_option("PATH", path, "a shared library, a directory (site-packages/torch, a Nix result) or a .whl")
      ->required();
  app.add_option("--sm", sms, "compute capabilities to keep code for (9.0, or 8.6,9.0 for mixed hosts)")
      ->delimiter(',')
      ->type_name("SM[,SM]");
  app.add_option("--each", each,
                 "one output per target, from one pass over PATH: an SM (9.0), a mixed host's SMs joined by + "
                 "(8.6+8.9) or a --spec variant; -o names the folder they go to, a wheel's as PEP 825 variants")
      ->delimiter(',')
      ->type_name("TARGET[,TARGET]");
  app.add_option("--variant-label", variant_label,
                 "with --sm: write the wheel as the PEP 825 variant LABEL into the folder -o names, beside the "
                 "index's *-variants.json")
      ->type_name("LABEL");
  app.add_option("--spec", spec_arg,
                 "read names of its variants in --sm as the SMs they target (a set variant: every SM of its set)")
      ->type_name("SPEC");
  app.add_option("-o,--output", out, "write the pruned copy here (must not exist)")->type_name("OUT");
  app.add_flag("--in-place", in_place, "replace PATH's files (each atomically)");
  app.add_flag("--dry-run", dry_run, "report what would be removed, write nothing");
  app.add_flag("--json", json, "print the report as JSON");
  app.add_flag("--keep-ptx", keep_ptx, "also keep the newest PTX the GPUs can JIT-compile, beside SASS");
  app.add_flag("--no-compact", no_compact,
               "keep every file's size and layout: freed bytes become zeros (holes) instead of being cut out");
  app.add_flag("--reuse-note-header", reuse_note_header,
               "where a library has two fatbin sections (relocatable device code: NCCL, NVSHMEM), cut both out; "
               "costs its PT_NOTE program header, made a PT_LOAD: the build-id note stays in the file, but debuggers "
               "and crash reporters that find it through the program headers no longer do");
  add_wheel_limit_options(app, limits);
}

// The spec is read only where --sm names a variant of it.
void PruneRun::validate() {
  if (sms.empty() == each.empty())
    usage_error(sms.empty() ? "prune: say which GPUs to keep code for" : "prune: --sm and --each exclude each other",
                "--sm SM[,SM] for one output (a mixed host's SMs), --each SM,SM for one output each");
  if (!variant_label.empty() && !each.empty())
    usage_error("prune: --variant-label labels one output", "--each labels its outputs by their SMs (sm90)");
  if ((!each.empty() || !variant_label.empty()) && in_place)
    usage_error(fmt::format("prune: {} writes new outputs, not in place", each.empty() ? "--variant-label" : "--each"),
                "give -o DIR, the folder they go to");
  if (!out.empty() && in_place) usage_error("prune: -o and --in-place exclude each other", "choose one");
  if (reuse_note_header && no_compact)
    usage_error("prune: --reuse-note-header shapes compaction, which --no-compact turns off", "choose one");
  if (out.empty() && !in_place && !dry_run)
    usage_error("prune: say where the result goes", "give -o OUT for a pruned copy, or --in-place");
}

// The GPUs of each output, checked against the knowledge base before the artifact is read.
void PruneRun::resolve(Session& s) {
  using Sms = std::vector<std::vector<std::string>>;
  for (const auto& sms_one : each.empty() ? Sms{target_sms(s)} : each_targets(s)) {
    FanOutTarget t;
    for (const auto& sm : sms_one) t.targets.push_back(prune_target(s.facts(), sm));
    t.label = variant_label;
    outputs.push_back(std::move(t));
  }
}

// One writer per output: in place, the folder (whose files are replaced) or the
// file's folder (a replaced file is a new inode, a lock on it would not hold);
// a copy, the folder it goes into.
std::unique_ptr<OutputLock> PruneRun::lock_output(Session& s) const {
  if (dry_run) return nullptr;
  std::filesystem::path target = in_place ? std::filesystem::path(path) : std::filesystem::path(out);
  std::error_code ec;
  if (!in_place || !std::filesystem::is_directory(target, ec)) target = target.parent_path();
  if (target.empty()) target = ".";
  if (!std::filesystem::is_directory(target, ec)) return nullptr;
  return std::make_unique<OutputLock>(target, s.err);
}

// A variant name (with --spec) stands for its SMs: one, or every SM of its set.
std::vector<std::string> PruneRun::target_sms(Session& s) const {
  std::vector<std::string> targets;
  for (const auto& sm : sms) {
    if (spec_arg.empty() || parse_sm(sm)) {
      targets.push_back(sm);
      continue;
    }
    const auto& [spec, m] = s.matrix(spec_arg);
    for (const auto& x : m.require(sm, spec.path).sms())
      if (std::find(targets.begin(), targets.end(), x) == targets.end()) targets.push_back(x);
  }
  return targets;
}

// --each: one target each; a target is an SM, SMs joined by +, or (with --spec) a variant's SMs.
std::vector<std::vector<std::string>> PruneRun::each_targets(Session& s) const {
  std::vector<std::vector<std::string>> targets;
  for (const auto& t : each) {
    std::vector<std::string> one;
    if (!spec_arg.empty() && !parse_sm(t) && t.find('+') == std::string::npos) {
      const auto& [spec, m] = s.matrix(spec_arg);
      for (const auto& x : m.require(t, spec.path).sms())
        if (std::find(one.begin(), one.end(), x) == one.end()) one.push_back(x);
    } else {
      size_t at = 0;
      for (size_t plus; (plus = t.find('+', at)) != std::string::npos; at = plus + 1)
        one.push_back(t.substr(at, plus - at));
      one.push_back(t.substr(at));
    }
    targets.push_back(std::move(one));
  }
  return targets;
}

int PruneRun::report_fan_out(Session& s, const FanOutReport& r) const {
  size_t refused = 0;
  for (const auto& rep : r.outputs) refused += rep.refused();
  if (json) {
    nlohmann::json outputs = nlohmann::json::array();
    for (const auto& rep : r.outputs) outputs.push_back(to_json(rep, true));
    nlohmann::json j = {
        {"outputs", outputs},
        {"variants_index", r.variants_index.empty() ? nlohmann::json() : nlohmann::json(r.variants_index)},
        {"deflated", {{"bytes", r.deflated_bytes}, {"once_for_several", r.deflated_once}}}};
    s.out << json_text(j);
    for (const auto& rep : r.outputs) warn_refused(s, rep);
  } else {
    for (size_t i = 0; i < r.outputs.size(); ++i) {
      if (i) s.out << "\n";
      warn_refused(s, r.outputs[i]);
      print_text(s.out, r.outputs[i]);
    }
    if (r.outputs.size() > 1 && r.deflated_bytes)
      s.out << fmt::format(
          "\nchanged libraries of all outputs: {}; {} of it in blocks the same in several outputs, "
          "deflated once\n",
          human_bytes(r.deflated_bytes), human_bytes(r.deflated_once));
    if (!r.variants_index.empty())
      s.out << fmt::format("\nvariants index (PEP 825; an installer reads it beside the wheels): {} ({} variant{})\n",
                           r.variants_index, r.variants, r.variants == 1 ? "" : "s");
  }
  return refused ? kExitProblems : kExitOk;
}

int PruneRun::run_fan_out(Session& s) {
  FanOutRequest r;
  r.path = path;
  r.kind = s.artifact().kind;
  r.dir = out;
  // One writer per folder: the lock is on it, or (a folder still to be made) on the one it goes into.
  std::unique_ptr<OutputLock> lock;
  std::error_code ec;
  std::filesystem::path locked = std::filesystem::is_directory(r.dir, ec) ? r.dir : r.dir.parent_path();
  if (locked.empty()) locked = ".";
  if (!dry_run && std::filesystem::is_directory(locked, ec)) lock = std::make_unique<OutputLock>(locked, s.err);
  r.outputs = outputs;
  r.opts = options();
  r.limits = limits;
  return report_fan_out(s, prune_fan_out(r));
}

// The options every output shares (fan-out or one); the targets are the output's.
PruneOptions PruneRun::options() const {
  PruneOptions o;
  o.keep_ptx = keep_ptx;
  o.dry_run = dry_run;
  o.compact = !no_compact;
  o.reuse_note_header = reuse_note_header;
  return o;
}

int PruneRun::report(Session& s, const PruneReport& report) const {
  if (json) {
    s.out << json_text(to_json(report, true));
    warn_refused(s, report);
  } else {
    warn_refused(s, report);
    print_text(s.out, report);
  }
  // Stopped midway (in place): the record says which files are pruned; 128 + the signal, as a shell reports it.
  if (report.interrupted) {
    s.warn(fmt::format("interrupted by {}: {} files done, every other file left as it was; {} says which "
                       "(\"complete\": false); the same command finishes the prune",
                       signal_name(report.interrupted), report.files.size(),
                       report.record.empty() ? std::string("no record") : report.record),
           report.root);
    return 128 + report.interrupted;
  }
  // A file left as it was is work undone (a full disk, an unknown layout): exit 1 says so, as the
  // one-file form's error does, so a recipe's fixup phase does not pass with unpruned libraries.
  return report.refused() ? kExitProblems : kExitOk;
}

int PruneRun::run(Session& s) {
  if (!each.empty() || !variant_label.empty()) return run_fan_out(s);
  auto lock = lock_output(s);
  PruneRequest r;
  r.path = path;
  r.kind = s.artifact().kind;
  r.out = in_place ? std::filesystem::path() : std::filesystem::path(out);
  r.opts = options();
  r.opts.targets = outputs.front().targets;
  r.limits = limits;
  return report(s, prune_path(r));
}

}  // namespace

std::unique_ptr<CommandRun> make_prune() { return std::make_unique<PruneRun>(); }

}  // namespace tailor
