#include "prune/prune_path.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <map>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "binfmt/artifact.hpp"
#include "binfmt/wheel.hpp"
#include "prune/inplace_record.hpp"
#include "prune/parallel_deflate.hpp"
#include "prune/prune_record.hpp"
#include "prune/record_hash.hpp"
#include "util/atomic_write.hpp"
#include "util/diagnostic.hpp"
#include "util/file_error.hpp"
#include "util/json_text.hpp"
#include "util/parallel_for.hpp"
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
void prune_tree(PruneReport& rep, const PruneRequest& r) {
  rep.kind = ArtifactKind::directory;
  const bool copy = !r.out.empty() && !r.opts.dry_run;
  fs::path stage = r.out;
  stage += fmt::format("{}{}", kTempSuffix, ::getpid());
  std::error_code ec;
  struct Cleanup {
    fs::path p;
    ~Cleanup() {
      std::error_code e;
      if (!p.empty()) fs::remove_all(p, e);
    }
  } cleanup;
  std::optional<TempFileGuard> on_signal;  // a signal removes the staged copy too, not only a return
  if (copy) {
    if (!fs::create_directory(stage, ec))
      throw_file_error(r.out, fmt::format("cannot create the directory: {}", ec.message()));
    cleanup.p = stage;
    on_signal.emplace(stage);
  }
  // A folder that cannot be read fails the prune: a copy must not silently lack it.
  const std::vector<TreeEntry> entries = list_artifact_tree(r.path, false);
  std::vector<size_t> files;
  std::vector<std::string> swept;  // stale entries: what lies under them is no part of the tree either
  for (size_t i = 0; i < entries.size(); ++i) {
    const TreeEntry& e = entries[i];
    const fs::path& p = e.path;
    if (std::any_of(swept.begin(), swept.end(), [&](const std::string& s) { return e.rel.starts_with(s + "/"); }))
      continue;
    // A killed run's staging file is never copied; in place, it is swept.
    if (is_stale_temp_name(p.filename().string())) {
      if (!copy && !r.opts.dry_run) fs::remove_all(p, ec);
      swept.push_back(e.rel);
      continue;
    }
    fs::path dst = copy ? stage / e.rel : p;
    if (e.type == TreeEntry::Type::symlink) {
      if (copy) fs::copy_symlink(p, dst);
    } else if (e.type == TreeEntry::Type::directory) {
      if (copy) fs::create_directory(dst, p);
    } else if (e.type == TreeEntry::Type::elf || e.type == TreeEntry::Type::file) {
      files.push_back(i);
    }
  }
  // Hard links: one file under several names is pruned and counted once, and its other
  // names link to the result again (in place a rename gives the pruned file a new inode).
  std::vector<std::pair<size_t, size_t>> linked;  // (entry, the entry of its first name)
  {
    std::map<std::pair<dev_t, ino_t>, size_t> first_name;
    std::vector<size_t> once;
    for (size_t i : files) {
      struct stat st {};
      if (::lstat(entries[i].path.c_str(), &st) == 0 && st.st_nlink > 1) {
        auto [it, fresh] = first_name.try_emplace({st.st_dev, st.st_ino}, i);
        if (!fresh) {
          linked.emplace_back(i, it->second);
          continue;
        }
      }
      once.push_back(i);
    }
    files = std::move(once);
  }
  PruneOptions opts = r.opts;
  opts.fresh_output = copy;
  // In place, files change one by one: the record says which as it goes, and
  // a signal stops the prune between files instead of ending it (its files in
  // flight are left as they were), so the record it leaves is true.
  const bool in_place = !copy && !r.opts.dry_run;
  std::optional<InPlaceRecord> journal;
  std::optional<DeferSignals> defer;
  if (in_place &&
      std::any_of(files.begin(), files.end(), [&](size_t i) { return entries[i].type == TreeEntry::Type::elf; })) {
    journal.emplace(r.path / kPruneRecordName, rep);
    journal->begin();
    defer.emplace();
  }
  std::vector<FileOutcome> outcomes(files.size());
  std::vector<char> done(files.size(), 0);
  std::vector<std::exception_ptr> errors(files.size());
  parallel_for_on(0, files.size(), [&](size_t k) {
    const TreeEntry& e = entries[files[k]];
    if (defer && interrupting_signal()) return;  // left as it was
    try {
      outcomes[k] = prune_member_file(e, copy ? stage / e.rel : e.path, opts);
      done[k] = 1;
      if (journal && (outcomes[k].fatbin_bytes || !outcomes[k].refused.empty())) journal->done(outcomes[k]);
    } catch (...) {
      errors[k] = std::current_exception();  // an I/O error: the whole copy fails
    }
  });
  rep.interrupted = defer ? interrupting_signal() : 0;
  std::vector<char> entry_done(entries.size(), 0);
  for (size_t k = 0; k < files.size(); ++k) entry_done[files[k]] = done[k];
  if (!r.opts.dry_run)
    for (const auto& [i, first] : linked) {
      if (!entry_done[first]) continue;  // interrupted or failed: the names still share the old file
      const fs::path at = copy ? stage / entries[i].rel : entries[i].path;
      const fs::path from = copy ? stage / entries[first].rel : entries[first].path;
      if (!copy && fs::equivalent(from, at, ec)) continue;  // left as it was: still one file
      fs::path tmp = at;
      tmp += fmt::format("{}{}", kTempSuffix, ::getpid());
      std::error_code lec;
      fs::create_hard_link(from, tmp, lec);
      if (!lec) fs::rename(tmp, at, lec);
      if (lec) {
        fs::remove(tmp, ec);
        throw_file_error(at, fmt::format("cannot link to {}: {}", entries[first].rel, lec.message()));
      }
    }
  std::exception_ptr failed;
  for (auto& e : errors)  // interrupted, a file in flight fails as its staging file goes: left as it was
    if (e && !rep.interrupted && !failed) failed = e;
  for (size_t k = 0; k < outcomes.size(); ++k) {
    if (!done[k]) continue;
    FileOutcome& f = outcomes[k];
    rep.disk_before += f.disk_before;
    rep.disk_after += f.disk_after;
    keep_outcome(rep, std::move(f));
  }
  // The record verify reads: torch's arch list still names what was removed here.
  if (journal && journal->finish(rep, !failed && !rep.interrupted)) rep.record = r.path / kPruneRecordName;
  if (failed) std::rethrow_exception(failed);
  if (!journal && !r.opts.dry_run && rep.removed_bytes()) {
    fs::path at = (copy ? stage : r.path) / kPruneRecordName;
    write_file_atomically(at, json_text(to_json(rep, false)), fs::perms(0644));
    rep.record = (copy ? r.out : r.path) / kPruneRecordName;
  }
  if (copy) {
    fs::permissions(stage, fs::status(r.path).permissions(), ec);
    fs::rename(stage, r.out, ec);
    if (ec) throw_file_error(r.out, fmt::format("cannot create: {}", ec.message()));
    cleanup.p.clear();
    on_signal.reset();
  }
}

// The RECORD that the new wheel's is written from: a wheel without one is refused.
WheelRecord record_of(const Wheel& w, const fs::path& path) {
  std::optional<WheelRecord> r = read_record(w);
  if (!r)
    throw_file_error(path, "not a wheel: no *.dist-info/RECORD",
                     "tailor prune rewrites wheels (PEP 427) and their RECORD");
  return std::move(*r);
}

// One ELF member of a wheel: inflated into a temporary file, pruned there,
// and (changed) hashed; never whole in memory.
struct WheelWork {
  size_t member = 0;
  FileOutcome outcome;
  std::unique_ptr<ScratchFile> bytes;  ///< the pruned member; null unless it changed
  uint32_t crc = 0;
  std::string record_line;
  std::exception_ptr error;  ///< a corrupt member: the wheel is refused
};

void prune_wheel_member(const Wheel& w, WheelWork& k, const PruneOptions& opts, bool write, const fs::path& scratch,
                        const std::string& shown) {
  const WheelMember& m = w.members[k.member];
  try {
    k.bytes = w.inflate_to(m, scratch, shown);
  } catch (...) {
    k.error = std::current_exception();
    return;
  }
  try {
    k.outcome = prune_elf_scratch(m.name, *k.bytes, opts);
  } catch (const DiagnosticError& e) {
    k.outcome.path = m.name;
    k.outcome.refused = e.diagnostic().message;
  }
  k.outcome.compressed_before = k.outcome.compressed_after = m.compressed_size;
  if (!write || !k.outcome.removed_bytes || !k.outcome.refused.empty()) {
    k.bytes.reset();
    return;
  }
  MemberDigest d = digest_of(*k.bytes);
  k.crc = d.crc32;
  k.record_line = fmt::format("{},{},{}", m.name, d.record_hash, k.bytes->size());
}

// A new wheel in four steps: find the ELF members; read, prune and hash them
// on every core; deflate the changed ones in blocks on every core; write the
// archive in the original order, unchanged members copied as stored.
void prune_wheel(PruneReport& rep, const PruneRequest& r, const Wheel& w) {
  rep.kind = ArtifactKind::wheel;
  rep.download_before = w.data.size();
  const WheelRecord record = record_of(w, r.path);
  const bool write = !r.opts.dry_run;
  const std::string json_name = record.dist_info() + "/" + kPruneRecordName;
  // Staged before any work: an output that cannot be made is said first, by its name.
  std::optional<StagedOutput> out;
  if (write) out.emplace(r.out);
  if (write) refuse_zip64_members(w.members);
  std::vector<WheelWork> work;
  std::vector<char> is_elf(w.members.size(), 0);
  for (size_t i = 0; i < w.members.size(); ++i) {
    const WheelMember& m = w.members[i];
    if (m.name == record.name || m.name == json_name) continue;
    if (!is_elf_member(w, m)) {  // folders counted here too
      rep.other_files++;
      continue;
    }
    is_elf[i] = 1;
    work.emplace_back();
    work.back().member = i;
  }
  // Largest first, so the longest piece does not start last.
  std::vector<size_t> order(work.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return w.members[work[a].member].uncompressed_size > w.members[work[b].member].uncompressed_size;
  });
  // Beside the output: a member of gigabytes needs the disk the new wheel goes to
  // (a dry run writes no wheel: the system's temporary folder).
  const fs::path scratch = write ? fs::absolute(r.out).parent_path() : fs::temp_directory_path();
  const size_t threads = std::min(usable_cores(), kWheelThreads);
  parallel_for_on(threads, order.size(), [&](size_t i) {
    WheelWork& k = work[order[i]];
    try {
      prune_wheel_member(w, k, r.opts, write, scratch, write ? r.out.string() : std::string());
    } catch (...) {
      k.error = std::current_exception();  // never out of a thread: rethrown below, in member order
    }
  });
  for (auto& k : work)
    if (k.error) std::rethrow_exception(k.error);
  rep.deflate_level = kDeflateLevel;
  if (!write) {
    for (auto& k : work) keep_outcome(rep, std::move(k.outcome));
    return;
  }
  // The archive in the original order, written as it goes: the changed
  // members' blocks are deflated a window at a time and written as they come,
  // the members before each copied first, so memory holds a window of blocks
  // and a piece of a copy, whatever the wheel's size.
  std::vector<WheelWork*> changed_work;
  std::vector<const ByteReader*> changed;
  for (auto& k : work)
    if (k.bytes) changed_work.push_back(&k), changed.push_back(k.bytes.get());
  ZipWriter zip(out->fd(), r.out.string());
  std::map<std::string, std::string> new_lines;  // path -> RECORD line
  size_t next_member = 0, next_work = 0;
  auto copy_until = [&](size_t end) {  // members [next_member, end), none of them changed
    for (; next_member < end; ++next_member) {
      const WheelMember& m = w.members[next_member];
      if (m.name == record.name || m.name == json_name) continue;  // both written anew last
      zip.add_stored(m, w);
      if (is_elf[next_member]) keep_outcome(rep, std::move(work[next_work++].outcome));
    }
  };
  deflate_streamed(
      std::span<const ByteReader* const>(changed),
      [&](size_t input, ByteSlice piece, bool last) {
        WheelWork& k = *changed_work[input];
        const WheelMember& m = w.members[k.member];
        if (next_member <= k.member) {  // its first block
          copy_until(k.member);
          zip.begin_packed(m.name, k.crc, k.bytes->size(), m);
          next_member = k.member + 1;
        }
        zip.append_packed(piece);
        if (!last) return;
        k.outcome.compressed_after = zip.end_packed();
        new_lines[m.name] = k.record_line;
        k.bytes.reset();  // its temporary file goes now, not at the end
        keep_outcome(rep, std::move(work[next_work++].outcome));
      },
      kDeflateLevel, kDeflateBlock, threads);
  copy_until(w.members.size());
  std::string text;
  for (const auto& line : record.lines) {
    std::string p = record_path(line);
    if (p == json_name) continue;
    auto it = new_lines.find(p);
    text += (it == new_lines.end() ? line : it->second) + "\n";
  }
  // The JSON cannot hold the archive's final size (it is inside it): the size
  // up to the JSON is a lower bound; the command's report has the exact one.
  rep.download_after = zip.written();
  std::string json = json_text(to_json(rep, false));
  WheelMember like;
  like.external_attributes = 0100644u << 16;
  add_deflated(zip, json_name, ByteSlice::of(json), like);
  rep.record = json_name;
  text += fmt::format("{},{},{}\n", json_name, record_hash(ByteSlice::of(json)), json.size());
  add_deflated(zip, record.name, ByteSlice::of(text), like);
  zip.finish();
  rep.download_after = zip.written();
  struct stat st {};
  ::fchmod(out->fd(), ::stat(r.path.c_str(), &st) == 0 ? st.st_mode & 0777 : 0644);  // the input wheel's mode
  out->commit();
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
  const ArtifactKind kind = artifact_kind(r.path);
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
    try {
      prune_wheel(rep, r, file.wheel);
    } catch (const DiagnosticError& e) {
      if (!e.diagnostic().path.empty()) throw;
      throw_file_error(r.path, e.diagnostic().message);
    }
  }
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return rep;
}

}  // namespace tailor
