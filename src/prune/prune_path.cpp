#include "prune/prune_path.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "binfmt/elf_file.hpp"
#include "binfmt/mapped_file.hpp"
#include "binfmt/wheel.hpp"
#include "prune/parallel_deflate.hpp"
#include "prune/prune_json.hpp"
#include "prune/zip_writer.hpp"
#include "util/atomic_write.hpp"
#include "util/diagnostic.hpp"
#include "util/file_error.hpp"
#include "util/parallel_for.hpp"
#include "util/temp_files.hpp"

namespace tailor {

namespace fs = std::filesystem;

namespace {

constexpr const char* kRecordName = "tailor-prune.json";

bool is_elf_file(const fs::path& p) {
  uint8_t magic[4] = {};
  int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  ssize_t n = ::pread(fd, magic, sizeof magic, 0);
  ::close(fd);
  return is_elf_magic(magic, n > 0 ? static_cast<size_t>(n) : 0);
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
FileOutcome prune_member_file(const fs::path& src, const fs::path& dst, const std::string& rel,
                              const PruneOptions& opts) {
  FileOutcome f;
  if (is_elf_file(src)) {
    try {
      return prune_elf_file(src, dst, rel, opts);
    } catch (const DiagnosticError& e) {
      f.path = rel;
      f.refused = e.diagnostic().message;
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
  rep.kind = "directory";
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
  if (copy) {
    if (!fs::create_directory(stage, ec))
      throw_file_error(r.out, fmt::format("cannot create the directory: {}", ec.message()));
    cleanup.p = stage;
  }
  std::vector<fs::path> entries;
  for (auto it = fs::recursive_directory_iterator(r.path, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    entries.push_back(it->path());
  if (ec) throw_file_error(r.path, fmt::format("cannot walk the directory: {}", ec.message()));
  std::sort(entries.begin(), entries.end());
  std::vector<size_t> files;
  for (size_t i = 0; i < entries.size(); ++i) {
    const fs::path& p = entries[i];
    // A killed run's staging file is never copied; in place, it is swept.
    if (is_stale_temp_name(p.filename().string())) {
      if (!copy && !r.opts.dry_run) fs::remove_all(p, ec);
      continue;
    }
    fs::path dst = copy ? stage / p.lexically_relative(r.path) : p;
    fs::file_status st = fs::symlink_status(p);
    if (fs::is_symlink(st)) {
      if (copy) fs::copy_symlink(p, dst);
    } else if (fs::is_directory(st)) {
      if (copy) fs::create_directory(dst, p);
    } else if (fs::is_regular_file(st)) {
      files.push_back(i);
    }
  }
  PruneOptions opts = r.opts;
  opts.fresh_output = copy;
  std::vector<FileOutcome> outcomes(files.size());
  std::vector<std::exception_ptr> errors(files.size());
  parallel_for_on(0, files.size(), [&](size_t k) {
    const fs::path& p = entries[files[k]];
    std::string rel = p.lexically_relative(r.path).generic_string();
    try {
      outcomes[k] = prune_member_file(p, copy ? stage / rel : p, rel, opts);
    } catch (...) {
      errors[k] = std::current_exception();  // an I/O error: the whole copy fails
    }
  });
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
  for (auto& f : outcomes) {
    rep.disk_before += f.disk_before;
    rep.disk_after += f.disk_after;
    keep_outcome(rep, std::move(f));
  }
  // The record verify reads: torch's arch list still names what was removed here.
  if (!r.opts.dry_run && rep.removed_bytes()) {
    fs::path at = (copy ? stage : r.path) / kRecordName;
    write_file_atomically(at, to_json(rep, false).dump(2) + "\n", fs::perms(0644));
    rep.record = (copy ? r.out : r.path) / kRecordName;
  }
  if (copy) {
    fs::permissions(stage, fs::status(r.path).permissions(), ec);
    fs::rename(stage, r.out, ec);
    if (ec) throw_file_error(r.out, fmt::format("cannot create: {}", ec.message()));
    cleanup.p.clear();
  }
}

// The RECORD lines of a wheel by path, and where RECORD is.
struct Record {
  std::string name;  ///< "pkg-1.0.dist-info/RECORD"
  std::vector<std::string> lines;
};

Record read_record(const Wheel& w, const fs::path& path) {
  for (const auto& m : w.members) {
    if (!m.name.ends_with(".dist-info/RECORD") || std::count(m.name.begin(), m.name.end(), '/') != 1) continue;
    std::vector<uint8_t> text = w.read(m);
    Record r{m.name, {}};
    std::string line;
    for (uint8_t c : text) {
      if (c == '\n')
        r.lines.push_back(std::exchange(line, ""));
      else if (c != '\r')
        line.push_back(static_cast<char>(c));
    }
    if (!line.empty()) r.lines.push_back(line);
    return r;
  }
  throw_file_error(path, "not a wheel: no *.dist-info/RECORD",
                   "tailor prune rewrites wheels (PEP 427) and their RECORD");
}

// RECORD's path field: everything before the last two commas.
std::string record_path(const std::string& line) {
  size_t b = line.rfind(',');
  size_t a = b == std::string::npos || b == 0 ? std::string::npos : line.rfind(',', b - 1);
  std::string p = a == std::string::npos ? line : line.substr(0, a);
  if (p.size() >= 2 && p.front() == '"' && p.back() == '"') p = p.substr(1, p.size() - 2);
  return p;
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
  rep.kind = "wheel";
  rep.download_before = w.data.size();
  Record record = read_record(w, r.path);
  const bool write = !r.opts.dry_run;
  const std::string dist_info = record.name.substr(0, record.name.find('/'));
  const std::string json_name = dist_info + "/" + kRecordName;
  // Staged before any work: an output that cannot be made is said first, by its name.
  std::optional<StagedOutput> out;
  if (write) out.emplace(r.out);
  std::vector<WheelWork> work;
  std::vector<char> is_elf(w.members.size(), 0);
  for (size_t i = 0; i < w.members.size(); ++i) {
    const WheelMember& m = w.members[i];
    if (m.name == record.name || m.name == json_name) continue;
    std::vector<uint8_t> head = m.is_directory() ? std::vector<uint8_t>{} : w.read_prefix(m, 4);
    if (!is_elf_magic(head.data(), head.size())) {
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
  parallel_for_on(0, order.size(), [&](size_t i) {
    WheelWork& k = work[order[i]];
    try {
      prune_wheel_member(w, k, r.opts, write, scratch, write ? r.out.string() : std::string());
    } catch (...) {
      k.error = std::current_exception();  // never out of a thread: rethrown below, in member order
    }
  });
  for (auto& k : work)
    if (k.error) std::rethrow_exception(k.error);
  std::vector<const ByteReader*> changed;
  for (auto& k : work)
    if (k.bytes) changed.push_back(k.bytes.get());
  rep.deflate_level = kDeflateLevel;
  if (!write) {
    for (auto& k : work) keep_outcome(rep, std::move(k.outcome));
    return;
  }
  std::vector<std::vector<uint8_t>> packed = deflate_parallel(std::span<const ByteReader* const>(changed));
  ZipWriter zip(out->fd(), r.out.string());
  std::map<std::string, std::string> new_lines;  // path -> RECORD line
  size_t next_work = 0, next_packed = 0;
  for (size_t i = 0; i < w.members.size(); ++i) {
    const WheelMember& m = w.members[i];
    if (m.name == record.name || m.name == json_name) continue;  // both written anew last
    if (!is_elf[i]) {
      zip.add_stored(m, w.stored(m));
      continue;
    }
    WheelWork& k = work[next_work++];
    if (k.bytes) {
      const auto& p = packed[next_packed++];
      zip.add_packed(m.name, ByteSlice(p.data(), p.size()), k.crc, k.bytes->size(), m);
      k.outcome.compressed_after = p.size();
      new_lines[m.name] = k.record_line;
      k.bytes.reset();
    } else {
      zip.add_stored(m, w.stored(m));
    }
    keep_outcome(rep, std::move(k.outcome));
  }
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
  std::string json = to_json(rep, false).dump(2) + "\n";
  WheelMember like;
  like.external_attributes = 0100644u << 16;
  zip.add_deflated(json_name, ByteSlice::of(json), like);
  rep.record = json_name;
  text += fmt::format("{},{},{}\n", json_name, record_hash(ByteSlice::of(json)), json.size());
  zip.add_deflated(record.name, ByteSlice::of(text), like);
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
  std::error_code ec;
  fs::file_status st = fs::status(r.path, ec);
  if (ec || !fs::exists(st)) throw_file_error(r.path, "no such file or directory");
  if (!r.out.empty() && !r.opts.dry_run && fs::exists(fs::symlink_status(r.out)))
    throw_file_error(r.out, "the output exists already",
                     "tailor prune never overwrites: remove it, or choose another -o");
  // What a killed run staged beside the output (a file's copy, a folder's stage).
  if (!r.opts.dry_run) {
    fs::path beside = (r.out.empty() ? r.path : r.out).parent_path();
    remove_stale_temp_files(beside.empty() ? fs::path(".") : beside);
  }
  if (fs::is_directory(st)) {
    prune_tree(rep, r);
  } else if (is_elf_file(r.path)) {
    rep.kind = "file";
    const fs::path& out = r.out.empty() ? r.path : r.out;
    FileOutcome f = prune_elf_file(r.path, out, "", r.opts);
    rep.disk_before = f.disk_before;
    rep.disk_after = f.disk_after;
    keep_outcome(rep, std::move(f));
  } else {
    MappedFile file(r.path);
    std::optional<Wheel> w;
    try {
      w = try_open_wheel(file.bytes(), r.limits);
    } catch (const DiagnosticError& e) {
      throw_file_error(r.path, e.diagnostic().message, e.diagnostic().hint);
    }
    if (!w)
      throw_file_error(r.path, "not an ELF file, a wheel or a directory",
                       "tailor prune reads shared libraries (.so), wheels (.whl) and folders of them");
    if (r.out.empty() && !r.opts.dry_run)
      throw_file_error(r.path, "wheels are not pruned in place", "name the new wheel with -o");
    try {
      prune_wheel(rep, r, *w);
    } catch (const DiagnosticError& e) {
      if (!e.diagnostic().path.empty()) throw;
      throw_file_error(r.path, e.diagnostic().message);
    }
  }
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return rep;
}

}  // namespace tailor
