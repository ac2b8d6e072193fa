#include "prune/prune_path.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <tuple>

#include <fmt/format.h>

#include "binfmt/artifact.hpp"
#include "binfmt/wheel.hpp"
#include "kb/wheel_variant.hpp"
#include "prune/inplace_record.hpp"
#include "prune/parallel_deflate.hpp"
#include "prune/prune_record.hpp"
#include "prune/record_hash.hpp"
#include "util/atomic_write.hpp"
#include "util/diagnostic.hpp"
#include "util/file_error.hpp"
#include "util/json_text.hpp"
#include "util/parallel_for.hpp"
#include "util/read_file.hpp"
#include "util/temp_files.hpp"

namespace tailor {

namespace fs = std::filesystem;

namespace {

// A wheel's members and deflate blocks in flight at once: each holds a few MiB
// (a piece of the wheel, a block and its output), so that many stay far below
// 256 MB on a machine of any size; 16 cores already write faster than cp.
constexpr size_t kWheelThreads = 16;

// Deflates \a data, a small member prune writes (its record, RECORD), as member \a name of \a zip.
void add_deflated(ZipWriter& zip, const std::string& name, ByteSlice data, const WheelMember& like) {
  std::vector<uint8_t> packed = std::move(deflate_parallel(std::span(&data, 1))[0]);
  zip.add_packed(name, ByteSlice(packed.data(), packed.size()), crc32_of(data), data.size(), like);
}

void keep_outcome(PruneReport& rep, FileOutcome f) {
  if (f.fatbin_bytes || !f.refused.empty())
    rep.files.push_back(std::move(f));
  else
    rep.other_files++;
}

uint64_t allocated_bytes(const fs::path& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_blocks) * 512 : 0;
}

// One file of a directory: pruned, or reported refused and left (copied) as it was.
FileOutcome prune_member_file(const TreeEntry& e, const fs::path& dst, const PruneOptions& opts) {
  FileOutcome f;
  const fs::path& src = e.path;
  if (e.type == TreeEntry::Type::elf) {
    try {
      return prune_elf_file(src, dst, e.rel, opts);
    } catch (const DiagnosticError& err) {
      f.path = e.rel;
      f.refused = err.diagnostic().message;
    }
  }
  f.disk_before = f.disk_after = allocated_bytes(src);
  if (!opts.dry_run && src != dst) (opts.fresh_output ? copy_file_new : copy_file_atomically)(src, dst);
  return f;
}

// A tree: folders and links made first, in order; then every file on its own
// core (a copy by reflink or copy_file_range, or a pruned ELF file). A copy is
// staged in a temporary folder renamed into place at the end, so its files are
// written directly, not each under a temporary name of its own.
class TreePrune {
 public:
  TreePrune(PruneReport& rep, const PruneRequest& r)
      : rep_(rep), r_(r), copy_(!r.out.empty() && !r.opts.dry_run), in_place_(!copy_ && !r.opts.dry_run) {
    stage_ = r.out;
    stage_ += fmt::format("{}{}", kTempSuffix, ::getpid());
  }

  void run() {
    rep_.kind = ArtifactKind::directory;
    open_stage();
    // A folder that cannot be read fails the prune: a copy must not silently lack it.
    entries_ = list_artifact_tree(r_.path, false);
    walk();
    link_names_once();
    open_journal();
    prune_files();
    relink();
    collect();
    publish();
  }

 private:
  struct Cleanup {
    fs::path p;
    ~Cleanup() {
      std::error_code e;
      if (!p.empty()) fs::remove_all(p, e);
    }
  };

  // Where entry \a i is written: under the stage for a copy, else the file itself.
  fs::path target(size_t i) const { return copy_ ? stage_ / entries_[i].rel : entries_[i].path; }

  void open_stage() {
    if (!copy_) return;
    std::error_code ec;
    if (!fs::create_directory(stage_, ec))
      throw_file_error(r_.out, fmt::format("cannot create the directory: {}", ec.message()));
    cleanup_.p = stage_;
    on_signal_.emplace(stage_);  // a signal removes the staged copy too, not only a return
  }

  // Folders and links made in order; the files listed for the cores.
  void walk() {
    std::error_code ec;
    std::vector<std::string> swept;  // stale entries: what lies under them is no part of the tree either
    for (size_t i = 0; i < entries_.size(); ++i) {
      const TreeEntry& e = entries_[i];
      const fs::path& p = e.path;
      if (std::any_of(swept.begin(), swept.end(), [&](const std::string& s) { return e.rel.starts_with(s + "/"); }))
        continue;
      // A killed run's staging file is never copied; in place, it is swept.
      if (is_stale_temp_name(p.filename().string())) {
        if (!copy_ && !r_.opts.dry_run) fs::remove_all(p, ec);
        swept.push_back(e.rel);
        continue;
      }
      fs::path dst = target(i);
      if (e.type == TreeEntry::Type::symlink) {
        if (copy_) fs::copy_symlink(p, dst);
      } else if (e.type == TreeEntry::Type::directory) {
        if (copy_) fs::create_directory(dst, p);
      } else if (e.type == TreeEntry::Type::elf || e.type == TreeEntry::Type::file) {
        files_.push_back(i);
      }
    }
  }

  // Hard links: one file under several names is pruned and counted once, and its other
  // names link to the result again (in place a rename gives the pruned file a new inode).
  void link_names_once() {
    std::map<std::pair<dev_t, ino_t>, size_t> first_name;
    std::vector<size_t> once;
    for (size_t i : files_) {
      struct stat st {};
      if (::lstat(entries_[i].path.c_str(), &st) == 0 && st.st_nlink > 1) {
        auto [it, fresh] = first_name.try_emplace({st.st_dev, st.st_ino}, i);
        if (!fresh) {
          linked_.emplace_back(i, it->second);
          continue;
        }
      }
      once.push_back(i);
    }
    files_ = std::move(once);
  }

  // In place, files change one by one: the record says which as it goes, and
  // a signal stops the prune between files instead of ending it (its files in
  // flight are left as they were), so the record it leaves is true.
  void open_journal() {
    if (in_place_ &&
        std::any_of(files_.begin(), files_.end(), [&](size_t i) { return entries_[i].type == TreeEntry::Type::elf; })) {
      journal_.emplace(r_.path / kPruneRecordName, rep_);
      journal_->begin();
      defer_.emplace();
    }
  }

  void prune_files() {
    PruneOptions opts = r_.opts;
    opts.fresh_output = copy_;
    outcomes_.resize(files_.size());
    done_.assign(files_.size(), 0);
    errors_.resize(files_.size());
    parallel_for_on(0, files_.size(), [&](size_t k) {
      const TreeEntry& e = entries_[files_[k]];
      if (defer_ && interrupting_signal()) return;  // left as it was
      try {
        outcomes_[k] = prune_member_file(e, target(files_[k]), opts);
        done_[k] = 1;
        if (journal_ && (outcomes_[k].fatbin_bytes || !outcomes_[k].refused.empty())) journal_->done(outcomes_[k]);
      } catch (...) {
        errors_[k] = std::current_exception();  // an I/O error: the whole copy fails
      }
    });
    rep_.interrupted = defer_ ? interrupting_signal() : 0;
  }

  // The other names of a hard-linked file, linked to its pruned first name.
  void relink() {
    if (r_.opts.dry_run) return;
    std::error_code ec;
    std::vector<char> entry_done(entries_.size(), 0);
    for (size_t k = 0; k < files_.size(); ++k) entry_done[files_[k]] = done_[k];
    for (const auto& [i, first] : linked_) {
      if (!entry_done[first]) continue;  // interrupted or failed: the names still share the old file
      const fs::path at = target(i);
      const fs::path from = target(first);
      if (!copy_ && fs::equivalent(from, at, ec)) continue;  // left as it was: still one file
      fs::path tmp = at;
      tmp += fmt::format("{}{}", kTempSuffix, ::getpid());
      std::error_code lec;
      fs::create_hard_link(from, tmp, lec);
      if (!lec) fs::rename(tmp, at, lec);
      if (lec) {
        fs::remove(tmp, ec);
        throw_file_error(at, fmt::format("cannot link to {}: {}", entries_[first].rel, lec.message()));
      }
    }
  }

  void collect() {
    for (auto& e : errors_)  // interrupted, a file in flight fails as its staging file goes: left as it was
      if (e && !rep_.interrupted && !failed_) failed_ = e;
    for (size_t k = 0; k < outcomes_.size(); ++k) {
      if (!done_[k]) continue;
      FileOutcome& f = outcomes_[k];
      rep_.disk_before += f.disk_before;
      rep_.disk_after += f.disk_after;
      keep_outcome(rep_, std::move(f));
    }
  }

  // The record verify reads (torch's arch list still names what was removed here), then
  // the staged copy renamed into place.
  void publish() {
    if (journal_ && journal_->finish(rep_, !failed_ && !rep_.interrupted)) rep_.record = r_.path / kPruneRecordName;
    if (failed_) std::rethrow_exception(failed_);
    if (!journal_ && !r_.opts.dry_run && rep_.removed_bytes()) {
      fs::path at = (copy_ ? stage_ : r_.path) / kPruneRecordName;
      write_file_atomically(at, json_text(to_json(rep_, false)), fs::perms(0644));
      rep_.record = (copy_ ? r_.out : r_.path) / kPruneRecordName;
    }
    if (copy_) {
      std::error_code ec;
      fs::permissions(stage_, fs::status(r_.path).permissions(), ec);
      fs::rename(stage_, r_.out, ec);
      if (ec) throw_file_error(r_.out, fmt::format("cannot create: {}", ec.message()));
      cleanup_.p.clear();
      on_signal_.reset();
    }
  }

  PruneReport& rep_;
  const PruneRequest& r_;
  const bool copy_, in_place_;
  fs::path stage_;
  // Declared before the signal guard and journal: destroyed after them, as in one function.
  Cleanup cleanup_;
  std::optional<TempFileGuard> on_signal_;
  std::vector<TreeEntry> entries_;
  std::vector<size_t> files_;                      // entries pruned or copied, one per file
  std::vector<std::pair<size_t, size_t>> linked_;  // (entry, the entry of its first name)
  std::optional<InPlaceRecord> journal_;
  std::optional<DeferSignals> defer_;
  std::vector<FileOutcome> outcomes_;
  std::vector<char> done_;
  std::vector<std::exception_ptr> errors_;
  std::exception_ptr failed_;
};

void prune_tree(PruneReport& rep, const PruneRequest& r) { TreePrune(rep, r).run(); }

// The RECORD that the new wheel's is written from: a wheel without one is refused.
WheelRecord record_of(const Wheel& w, const fs::path& path) {
  std::optional<WheelRecord> r = read_record(w);
  if (!r)
    throw_file_error(path, "not a wheel: no *.dist-info/RECORD",
                     "tailor prune rewrites wheels (PEP 427) and their RECORD");
  return std::move(*r);
}

// One ELF member of a wheel for one output: its pruned bytes in a temporary
// file (null unless they changed), and their hash; never whole in memory.
struct MemberOutcome {
  FileOutcome outcome;
  std::unique_ptr<ScratchFile> bytes;
  uint32_t crc = 0;
  std::string record_line;
  std::vector<uint64_t> moved;  ///< where compaction's moved bytes start: the deflater's restarts
};

// One ELF member of a wheel: inflated once, pruned for each output.
struct WheelWork {
  size_t member = 0;
  std::unique_ptr<ScratchFile> inflated;  ///< until every output's copy is made
  std::vector<MemberOutcome> out;         ///< one per output
  std::exception_ptr error;               ///< a corrupt member: the wheel is refused
};

// What one output of a wheel's prune is: where it goes, what it keeps, its report.
struct WheelOutput {
  fs::path out;
  PruneOptions opts;
  PruneReport* rep = nullptr;
  std::string variant_json;  ///< PEP 825 variant.json text; empty: not a variant wheel
  std::optional<StagedOutput> staged;
  std::optional<ZipWriter> zip;
  std::map<std::string, std::string> new_lines;  // path -> RECORD line
  size_t next_member = 0, next_work = 0;
};

// Inflates member \a k.member into a temporary file; a corrupt member is \a k's error.
void inflate_member(const Wheel& w, WheelWork& k, size_t outputs, const fs::path& scratch, const std::string& shown) {
  k.out.resize(outputs);
  try {
    k.inflated = w.inflate_to(w.members[k.member], scratch, shown);
  } catch (...) {
    k.error = std::current_exception();
  }
}

// Prunes member \a k for output \a t: the inflated bytes themselves where it is the only
// output, else written from them into a file of its own (only what it keeps: the kernel
// copies the rest, and a member it does not change is not copied); hashed when changed.
void prune_member_for(const Wheel& w, WheelWork& k, size_t t, const WheelOutput& o, bool only, bool write,
                      const fs::path& scratch, const std::string& shown) {
  const WheelMember& m = w.members[k.member];
  MemberOutcome& mo = k.out[t];
  mo.bytes = only ? std::move(k.inflated) : std::make_unique<ScratchFile>(scratch, shown);
  try {
    mo.outcome = only ? prune_elf_scratch(m.name, *mo.bytes, o.opts, &mo.moved)
                      : prune_elf_scratch_into(m.name, *k.inflated, *mo.bytes, o.opts, &mo.moved);
  } catch (const DiagnosticError& e) {
    mo.outcome.path = m.name;
    mo.outcome.refused = e.diagnostic().message;
  }
  mo.outcome.compressed_before = mo.outcome.compressed_after = m.compressed_size;
  if (!write || !mo.outcome.removed_bytes || !mo.outcome.refused.empty()) {
    mo.bytes.reset();
    return;
  }
  MemberDigest d = digest_of(*mo.bytes);
  mo.crc = d.crc32;
  mo.record_line = fmt::format("{},{},{}", m.name, d.record_hash, mo.bytes->size());
}

// Runs \a fn(t) for every output at once (each writes only its own archive); the
// first error, in output order, is thrown once all are done.
template <typename Fn>
void each_output(size_t outputs, Fn&& fn) {
  std::vector<std::exception_ptr> errors(outputs);
  parallel_for_on(outputs, outputs, [&](size_t t) {
    try {
      fn(t);
    } catch (...) {
      errors[t] = std::current_exception();
    }
  });
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

// New wheels in four steps: find the ELF members; read and inflate each once,
// prune it for every output and hash it, on every core; deflate the changed
// ones in blocks on every core; write each archive in the original order,
// unchanged members copied as stored. One output is tailor prune's wheel; more
// are a fan-out, written side by side from the one pass.
class WheelPrune {
 public:
  WheelPrune(std::vector<WheelOutput>& outs, const fs::path& path, const Wheel& w, bool dry_run)
      : outs_(outs),
        path_(path),
        w_(w),
        record_(record_of(w, path)),
        write_(!dry_run),
        json_name_(record_.dist_info() + "/" + kPruneRecordName),
        variant_name_(record_.dist_info() + "/" + kVariantFile) {}

  // Returns the changed members' bytes, summed over the outputs, and those deflated once for several.
  std::pair<uint64_t, uint64_t> run() {
    stage();
    find_members();
    order_by_size();
    // Beside the outputs: a member of gigabytes needs the disk the new wheels go to
    // (a dry run writes no wheel: the system's temporary folder).
    scratch_ = write_ ? fs::absolute(outs_[0].out).parent_path() : fs::temp_directory_path();
    shown_ = write_ ? outs_[0].out.string() : std::string();
    threads_ = std::min(usable_cores(), kWheelThreads);
    if (outs_.size() == 1)
      prune_one();
    else
      prune_fanned();
    for (auto& k : work_)
      if (k.error) std::rethrow_exception(k.error);
    for (auto& o : outs_) o.rep->deflate_level = kDeflateLevel;
    if (!write_) {
      for (auto& k : work_)
        for (size_t t = 0; t < outs_.size(); ++t) keep_outcome(*outs_[t].rep, std::move(k.out[t].outcome));
      return {0, 0};
    }
    group_changed();
    const uint64_t once = write_members();
    finish_archives();
    // Each output complete: only then do they take their names, so a failure leaves none.
    for (auto& o : outs_) o.staged->commit();
    return {changed_bytes_, once};
  }

 private:
  // Written anew last: the record, and a variant wheel's metadata.
  bool written_last(const std::string& name, const WheelOutput& o) const {
    return name == record_.name || name == json_name_ || (!o.variant_json.empty() && name == variant_name_);
  }

  void stage() {
    for (auto& o : outs_) {
      o.rep->kind = ArtifactKind::wheel;
      o.rep->download_before = w_.data.size();
    }
    // Staged before any work: an output that cannot be made is said first, by its name.
    if (write_)
      for (auto& o : outs_) o.staged.emplace(o.out);
    if (write_) refuse_zip64_members(w_.members);
  }

  void find_members() {
    is_elf_.assign(w_.members.size(), 0);
    for (size_t i = 0; i < w_.members.size(); ++i) {
      const WheelMember& m = w_.members[i];
      if (m.name == record_.name || m.name == json_name_) continue;
      if (!is_elf_member(w_, m)) {  // folders counted here too
        for (auto& o : outs_)
          if (!written_last(m.name, o)) o.rep->other_files++;
        continue;
      }
      is_elf_[i] = 1;
      work_.emplace_back();
      work_.back().member = i;
    }
  }

  // Largest first, so the longest piece does not start last.
  void order_by_size() {
    order_.resize(work_.size());
    for (size_t i = 0; i < order_.size(); ++i) order_[i] = i;
    std::stable_sort(order_.begin(), order_.end(), [&](size_t a, size_t b) {
      return w_.members[work_[a].member].uncompressed_size > w_.members[work_[b].member].uncompressed_size;
    });
  }

  // One output: each member inflated and pruned by one thread, in place.
  void prune_one() {
    parallel_for_on(threads_, order_.size(), [&](size_t i) {
      WheelWork& k = work_[order_[i]];
      try {
        inflate_member(w_, k, 1, scratch_, shown_);
        if (!k.error) prune_member_for(w_, k, 0, outs_[0], true, write_, scratch_, shown_);
      } catch (...) {
        k.error = std::current_exception();  // never out of a thread: rethrown below, in member order
      }
    });
  }

  // A fan-out: every member inflated once, then each (member, output) pruned on
  // its own thread, so the largest member's outputs do not queue on one core.
  void prune_fanned() {
    const size_t n = outs_.size();
    parallel_for_on(threads_, order_.size(), [&](size_t i) {
      try {
        inflate_member(w_, work_[order_[i]], n, scratch_, shown_);
      } catch (...) {
        work_[order_[i]].error = std::current_exception();
      }
    });
    std::vector<std::exception_ptr> errors(order_.size() * n);
    parallel_for_on(threads_, errors.size(), [&](size_t i) {
      WheelWork& k = work_[order_[i / n]];
      if (k.error) return;
      try {
        prune_member_for(w_, k, i % n, outs_[i % n], false, write_, scratch_, shown_);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    });
    for (size_t i = 0; i < errors.size(); ++i)
      if (errors[i] && !work_[order_[i / n]].error) work_[order_[i / n]].error = errors[i];
    for (auto& k : work_) k.inflated.reset();
  }

  // One group per changed member: its outputs' bytes, whose blocks the prune did not
  // reach are the same in each and deflated once.
  void group_changed() {
    for (auto& k : work_) {
      std::vector<size_t> ts;
      std::vector<GroupInput> inputs;
      for (size_t t = 0; t < outs_.size(); ++t)
        if (k.out[t].bytes) ts.push_back(t), inputs.push_back({k.out[t].bytes.get(), k.out[t].moved});
      if (inputs.empty()) continue;
      for (const GroupInput& in : inputs) changed_bytes_ += in.bytes->size();
      group_work_.push_back(&k);
      group_outputs_.push_back(std::move(ts));
      groups_.push_back(std::move(inputs));
    }
  }

  // Members [next_member, end) of output \a t, none changed, copied as stored.
  void copy_until(WheelOutput& o, size_t t, size_t end) {
    for (; o.next_member < end; ++o.next_member) {
      const WheelMember& m = w_.members[o.next_member];
      if (written_last(m.name, o)) continue;
      o.zip->add_stored(m, w_);
      if (is_elf_[o.next_member]) keep_outcome(*o.rep, std::move(work_[o.next_work++].out[t].outcome));
    }
  }

  void put_block(const HandedBlock& b) {
    WheelWork* k = group_work_[b.group];
    const size_t t = group_outputs_[b.group][b.input];
    WheelOutput& o = outs_[t];
    MemberOutcome& mo = k->out[t];
    const WheelMember& m = w_.members[k->member];
    if (o.next_member <= k->member) {  // its first block
      copy_until(o, t, k->member);
      o.zip->begin_packed(m.name, mo.crc, mo.bytes->size(), m);
      o.next_member = k->member + 1;
    }
    o.zip->append_packed(b.deflated);
    if (!b.last) return;
    mo.outcome.compressed_after = o.zip->end_packed();
    o.new_lines[m.name] = mo.record_line;
    mo.bytes.reset();  // its temporary file goes now (no later window reads it), not at the end
    keep_outcome(*o.rep, std::move(work_[o.next_work++].out[t].outcome));
  }

  // The archives in the original order, written as they go: the changed
  // members' blocks (a member's outputs one after another) are deflated a
  // window at a time and written as they come, the members before each copied
  // first, so memory holds a window of blocks and a piece of a copy, whatever
  // the wheel's size and however many outputs. Returns the bytes deflated once for several.
  uint64_t write_members() {
    for (auto& o : outs_) o.zip.emplace(o.staged->fd(), o.out.string());
    return deflate_windows(
        groups_,
        [&](std::span<const HandedBlock> window) {
          // Each output's blocks in order, the outputs side by side: each writes its own archive
          // (and copies the members before its changed ones), while the cores deflate the next window.
          std::vector<std::vector<const HandedBlock*>> of(outs_.size());
          for (const HandedBlock& b : window) of[group_outputs_[b.group][b.input]].push_back(&b);
          each_output(outs_.size(), [&](size_t t) {
            for (const HandedBlock* b : of[t]) put_block(*b);
          });
        },
        kDeflateLevel, kDeflateBlock, threads_);
  }

  // Each archive's last members, its record, its prune record and RECORD.
  void finish_archives() {
    struct stat st {};
    const mode_t mode =
        ::stat(path_.c_str(), &st) == 0 ? st.st_mode & 0777 : 0644;  // the input wheel's, for each output
    each_output(outs_.size(), [&](size_t t) { finish_archive(t, mode); });
  }

  void finish_archive(size_t t, mode_t mode) {
    WheelOutput& o = outs_[t];
    PruneReport& rep = *o.rep;
    ZipWriter& zip = *o.zip;
    copy_until(o, t, w_.members.size());
    std::string text;
    for (const auto& line : record_.lines) {
      std::string p = record_path(line);
      if (p == json_name_ || (!o.variant_json.empty() && p == variant_name_)) continue;
      auto it = o.new_lines.find(p);
      text += (it == o.new_lines.end() ? line : it->second) + "\n";
    }
    // The JSON cannot hold the archive's final size (it is inside it): the size
    // up to the JSON is a lower bound; the command's report has the exact one.
    rep.download_after = zip.written();
    std::string json = json_text(to_json(rep, false));
    WheelMember like;
    like.external_attributes = 0100644u << 16;
    add_deflated(zip, json_name_, ByteSlice::of(json), like);
    rep.record = json_name_;
    text += fmt::format("{},{},{}\n", json_name_, record_hash(ByteSlice::of(json)), json.size());
    // A variant wheel's metadata after the record, so that all before it is the single prune's.
    if (!o.variant_json.empty()) {
      add_deflated(zip, variant_name_, ByteSlice::of(o.variant_json), like);
      text +=
          fmt::format("{},{},{}\n", variant_name_, record_hash(ByteSlice::of(o.variant_json)), o.variant_json.size());
    }
    add_deflated(zip, record_.name, ByteSlice::of(text), like);
    zip.finish();
    rep.download_after = zip.written();
    ::fchmod(o.staged->fd(), mode);
  }

  std::vector<WheelOutput>& outs_;
  const fs::path& path_;
  const Wheel& w_;
  const WheelRecord record_;
  const bool write_;
  const std::string json_name_, variant_name_;
  std::vector<WheelWork> work_;
  std::vector<char> is_elf_;
  std::vector<size_t> order_;  // indexes into work_, largest member first
  fs::path scratch_;
  std::string shown_;
  size_t threads_ = 1;
  std::vector<WheelWork*> group_work_;
  std::vector<std::vector<size_t>> group_outputs_;
  std::vector<std::vector<GroupInput>> groups_;
  uint64_t changed_bytes_ = 0;
};

std::pair<uint64_t, uint64_t> prune_wheel(std::vector<WheelOutput>& outs, const fs::path& path, const Wheel& w,
                                          bool dry_run) {
  return WheelPrune(outs, path, w, dry_run).run();
}

}  // namespace

PruneReport prune_path(const PruneRequest& r) {
  auto start = std::chrono::steady_clock::now();
  PruneReport rep;
  rep.root = r.path.string();
  rep.output = r.opts.dry_run ? "" : (r.out.empty() ? r.path.string() : r.out.string());
  for (const auto& t : r.opts.targets) rep.sm.push_back(t.sm);
  rep.keep_ptx = r.opts.keep_ptx;
  rep.dry_run = r.opts.dry_run;
  const ArtifactKind kind = r.kind ? *r.kind : artifact_kind(r.path);
  if (!r.out.empty() && !r.opts.dry_run && fs::exists(fs::symlink_status(r.out)))
    throw_file_error(r.out, "the output exists already",
                     "tailor prune never overwrites: remove it, or choose another -o");
  // What a killed run staged beside the output (a file's copy, a folder's stage).
  if (!r.opts.dry_run) {
    fs::path beside = (r.out.empty() ? r.path : r.out).parent_path();
    remove_stale_temp_files(beside.empty() ? fs::path(".") : beside);
  }
  if (kind == ArtifactKind::directory) {
    prune_tree(rep, r);
  } else if (kind == ArtifactKind::file) {
    rep.kind = ArtifactKind::file;
    const fs::path& out = r.out.empty() ? r.path : r.out;
    FileOutcome f = prune_elf_file(r.path, out, "", r.opts);
    rep.disk_before = f.disk_before;
    rep.disk_after = f.disk_after;
    keep_outcome(rep, std::move(f));
  } else {
    WheelFile file = open_wheel_file(r.path, r.limits, "tailor prune");
    if (r.out.empty() && !r.opts.dry_run)
      throw_file_error(r.path, "wheels are not pruned in place", "name the new wheel with -o");
    std::vector<WheelOutput> outs(1);
    outs[0].out = r.out;
    outs[0].opts = r.opts;
    outs[0].rep = &rep;
    try {
      prune_wheel(outs, r.path, file.wheel, r.opts.dry_run);
    } catch (const DiagnosticError& e) {
      if (!e.diagnostic().path.empty()) throw;
      throw_file_error(r.path, e.diagnostic().message);
    }
  }
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return rep;
}

namespace {

std::vector<uint32_t> numbers_of(const std::vector<PruneTarget>& targets) {
  std::vector<uint32_t> n;
  for (const auto& t : targets) n.push_back(t.number);
  return n;
}

[[noreturn]] void bad_label(const std::string& message) {
  Diagnostic d;
  d.message = "prune: " + message;
  d.hint = "a PEP 825 variant label is one or more of 0-9, a-z, _ and . (\"sm90\"), one per output";
  throw DiagnosticError(std::move(d));
}

// Each output's PEP 825 label: as given, else made from its SMs; each valid and its own.
std::vector<std::string> labels_of(const FanOutRequest& r) {
  std::vector<std::string> labels;
  for (const auto& o : r.outputs) {
    std::string label = o.label.empty() ? variant_label_of(numbers_of(o.targets)) : o.label;
    if (!valid_variant_label(label)) bad_label(fmt::format("'{}' is no variant label", label));
    if (label == "null") bad_label("the label 'null' is PEP 825's variant of no properties");
    if (std::find(labels.begin(), labels.end(), label) != labels.end())
      bad_label(fmt::format("two outputs would be labelled '{}'", label));
    labels.push_back(label);
  }
  return labels;
}

// Where each output goes, and for a wheel its variant metadata and the index's.
struct FanOutPlaces {
  std::vector<fs::path> outs;
  VariantMetadata index;
  fs::path index_path;
  std::vector<std::string> variant_texts;
};

FanOutPlaces wheel_places(const FanOutRequest& r, const std::vector<std::string>& labels, bool write) {
  FanOutPlaces f;
  std::optional<WheelName> name = parse_wheel_name(r.path.filename().string());
  if (!name)
    throw_file_error(r.path, "not a wheel file name",
                     "a fan-out names its wheels after the input's "
                     "{distribution}-{version}(-{build})?-{python}-{abi}-{platform}.whl");
  if (!name->label.empty())
    throw_file_error(r.path, fmt::format("already a variant wheel (label '{}')", name->label),
                     "prune the wheel it was made from");
  const std::string cuda = cuda_of_wheel_version(name->version);
  f.index.namespaces = {kNvidiaNamespace};
  for (size_t i = 0; i < r.outputs.size(); ++i) {
    WheelName n = *name;
    n.label = labels[i];
    f.outs.push_back(r.dir / n.file_name());
    VariantMetadata one;
    one.namespaces = {kNvidiaNamespace};
    one.variants[labels[i]] = nvidia_properties(numbers_of(r.outputs[i].targets), cuda);
    f.variant_texts.push_back(variant_json_text(one));
    f.index.variants[labels[i]] = one.variants[labels[i]];
  }
  f.index_path = r.dir / name->variants_index_name();
  // An index already there (an earlier fan-out of the same version) is merged with, before any work.
  if (write && fs::exists(f.index_path)) {
    std::string text = read_file(f.index_path, "the variants index");
    VariantMetadata there = parse_variant_json(text, f.index_path.string());
    merge_variant_metadata(there, f.index, f.index_path.string());
    f.index = std::move(there);
  }
  return f;
}

// No output there yet, and the folder they go to made, its stale temporary files swept.
void prepare_dir(const FanOutRequest& r, const std::vector<fs::path>& outs) {
  for (const auto& o : outs)
    if (fs::exists(fs::symlink_status(o)))
      throw_file_error(o, "the output exists already",
                       "tailor prune never overwrites: remove it, or choose another -o");
  std::error_code ec;
  fs::create_directories(r.dir, ec);
  if (!fs::is_directory(r.dir)) throw_file_error(r.dir, fmt::format("cannot create the directory: {}", ec.message()));
  remove_stale_temp_files(r.dir);
}

// A library or folder has nothing to inflate: each output is prune_path's, the input
// read again from the page cache.
void fan_out_files(const FanOutRequest& r, const std::vector<fs::path>& outs, bool write, FanOutReport& fr) {
  for (size_t i = 0; i < r.outputs.size(); ++i) {
    PruneRequest one;
    one.path = r.path;
    one.opts = r.opts;
    one.opts.targets = r.outputs[i].targets;
    one.limits = r.limits;
    if (write) {
      fs::create_directory(outs[i].parent_path());
      one.out = outs[i];
    }
    fr.outputs[i] = prune_path(one);
  }
}

void fan_out_wheel(const FanOutRequest& r, const FanOutPlaces& places, bool write, FanOutReport& fr) {
  WheelFile file = open_wheel_file(r.path, r.limits, "tailor prune");
  std::vector<WheelOutput> wouts(r.outputs.size());
  for (size_t i = 0; i < r.outputs.size(); ++i) {
    wouts[i].out = places.outs[i];
    wouts[i].opts = r.opts;
    wouts[i].opts.targets = r.outputs[i].targets;
    wouts[i].rep = &fr.outputs[i];
    wouts[i].variant_json = places.variant_texts[i];
  }
  try {
    std::tie(fr.deflated_bytes, fr.deflated_once) = prune_wheel(wouts, r.path, file.wheel, r.opts.dry_run);
  } catch (const DiagnosticError& e) {
    if (!e.diagnostic().path.empty()) throw;
    throw_file_error(r.path, e.diagnostic().message);
  }
  if (write) {
    write_file_atomically(places.index_path, variant_json_text(places.index), fs::perms(0644));
    fr.variants_index = places.index_path.string();
    fr.variants = places.index.variants.size();
  }
}

}  // namespace

FanOutReport prune_fan_out(const FanOutRequest& r) {
  auto start = std::chrono::steady_clock::now();
  // As prune_path reads it: a folder, an ELF file, else a wheel.
  const ArtifactKind kind = r.kind ? *r.kind : artifact_kind(r.path);
  const bool is_wheel = kind != ArtifactKind::directory && kind != ArtifactKind::file;
  const bool write = !r.opts.dry_run;
  const std::vector<std::string> labels = labels_of(r);
  FanOutPlaces places;
  if (is_wheel) {
    places = wheel_places(r, labels, write);
  } else {
    const fs::path base = r.path.lexically_normal().filename().empty()
                              ? r.path.lexically_normal().parent_path().filename()
                              : r.path.lexically_normal().filename();
    for (const auto& l : labels) places.outs.push_back(r.dir / l / base);
  }
  if (write) prepare_dir(r, places.outs);
  FanOutReport fr;
  fr.outputs.resize(r.outputs.size());
  for (size_t i = 0; i < r.outputs.size(); ++i) {
    PruneReport& rep = fr.outputs[i];
    rep.root = r.path.string();
    rep.output = write ? places.outs[i].string() : "";
    for (const auto& t : r.outputs[i].targets) rep.sm.push_back(t.sm);
    rep.keep_ptx = r.opts.keep_ptx;
    rep.dry_run = r.opts.dry_run;
  }
  if (!is_wheel) {
    fan_out_files(r, places.outs, write, fr);
    return fr;
  }
  fan_out_wheel(r, places, write, fr);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (auto& rep : fr.outputs) rep.seconds = seconds;
  return fr;
}

}  // namespace tailor
