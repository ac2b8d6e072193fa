#include "prune/prune_file.hpp"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "binfmt/mapped_file.hpp"
#include "prune/deflate_estimate.hpp"
#include "prune/elf_compact.hpp"
#include "util/diagnostic.hpp"
#include "util/file_error.hpp"

namespace tailor {

namespace fs = std::filesystem;

namespace {

// An open file descriptor, closed on scope exit.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// Copies bytes [begin, end) of \a from to the same offsets of \a to: the kernel's
// copy_file_range, else read/write.
void copy_range(int from, int to, uint64_t begin, uint64_t end, const fs::path& in, const fs::path& out) {
  uint64_t done = begin;
  while (done < end) {
    loff_t off_in = static_cast<loff_t>(done), off_out = static_cast<loff_t>(done);
    ssize_t n = ::copy_file_range(from, &off_in, to, &off_out, end - done, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<uint64_t>(n);
  }
  std::vector<char> buf;
  while (done < end) {
    if (buf.empty()) buf.resize(1 << 20);
    ssize_t n = ::pread(from, buf.data(), std::min<uint64_t>(buf.size(), end - done), static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw_system_error(in, "read", errno);
    for (ssize_t w = 0; w < n;) {
      ssize_t m = ::pwrite(to, buf.data() + w, static_cast<size_t>(n - w), static_cast<off_t>(done + w));
      if (m < 0 && errno == EINTR) continue;
      if (m <= 0) throw_system_error(out, "write", errno);
      w += m;
    }
    done += static_cast<uint64_t>(n);
  }
}

// Fills \a to with the bytes of \a from: a reflink where the file system shares
// extents (btrfs, XFS), else its data extents alone (SEEK_DATA/SEEK_HOLE), so that a
// sparse file stays sparse: copied whole, a 300 MB file of 76 kB on disk took 307 MB.
// A failed read names \a in; a failed write names \a out, the output being made.
void clone_into(int from, int to, uint64_t size, const fs::path& in, const fs::path& out) {
  if (::ioctl(to, FICLONE, from) == 0) return;
  for (uint64_t at = 0; at < size;) {
    off_t data = ::lseek(from, static_cast<off_t>(at), SEEK_DATA);
    if (data < 0 && errno == ENXIO) break;                         // a hole to the end
    uint64_t begin = data < 0 ? at : static_cast<uint64_t>(data);  // no SEEK_DATA here: all of it is data
    off_t hole = data < 0 ? -1 : ::lseek(from, data, SEEK_HOLE);
    uint64_t end = hole < 0 ? size : std::min<uint64_t>(static_cast<uint64_t>(hole), size);
    if (begin >= end) break;
    copy_range(from, to, begin, end, in, out);
    at = end;
  }
  if (::ftruncate(to, static_cast<off_t>(size)) != 0) throw_system_error(out, "write", errno);
}

class FdSink : public ByteSink {
 public:
  FdSink(int fd, fs::path shown) : fd_(fd), shown_(std::move(shown)) {}
  void write(uint64_t offset, ByteSlice bytes) override {
    for (uint64_t w = 0; w < bytes.size();) {
      ssize_t n = ::pwrite(fd_, bytes.data() + w, bytes.size() - w, static_cast<off_t>(offset + w));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw_system_error(shown_, "write", errno);
      w += static_cast<uint64_t>(n);
    }
  }

 private:
  int fd_;
  fs::path shown_;
};

// The compacted file written fresh: copies come from the input by the kernel.
class CompactFdSink : public CompactSink {
 public:
  CompactFdSink(int from, int to, const fs::path& in, const fs::path& out)
      : from_(from), to_(to), in_(in), out_(out), plain_(to, out) {}
  void write(uint64_t offset, ByteSlice bytes) override { plain_.write(offset, bytes); }
  void copy(uint64_t to, uint64_t from, uint64_t length) override {
    while (length > 0) {
      off_t a = static_cast<off_t>(from), b = static_cast<off_t>(to);
      ssize_t n = ::copy_file_range(from_, &a, to_, &b, length, 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      from += static_cast<uint64_t>(n), to += static_cast<uint64_t>(n), length -= static_cast<uint64_t>(n);
    }
    std::vector<uint8_t> buf(std::min<uint64_t>(length, 1 << 20));
    while (length > 0) {
      ssize_t n = ::pread(from_, buf.data(), std::min<uint64_t>(length, buf.size()), static_cast<off_t>(from));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw_system_error(in_, "read", errno);
      plain_.write(to, ByteSlice(buf.data(), static_cast<uint64_t>(n)));
      from += static_cast<uint64_t>(n), to += static_cast<uint64_t>(n), length -= static_cast<uint64_t>(n);
    }
  }
  void truncate(uint64_t size) override {
    if (::ftruncate(to_, static_cast<off_t>(size)) != 0) throw_system_error(out_, "write", errno);
  }

 private:
  int from_, to_;
  fs::path in_, out_;
  FdSink plain_;
};

// Compaction into a scratch file: inside it (every byte moves towards the front),
// or from another (the one inflated copy of a member pruned for several outputs).
class CompactScratchSink : public CompactSink {
 public:
  CompactScratchSink(const ScratchFile& from, ScratchFile& to) : from_(from), to_(to) {}
  void write(uint64_t offset, ByteSlice bytes) override { to_.write_at(offset, bytes); }
  void copy(uint64_t to, uint64_t from, uint64_t length) override {
    if (&from_ != &to_) return to_.write_copy_of(from_, from, to, length);
    if (to == from) return;
    std::vector<uint8_t> buf;
    for (uint64_t done = 0; done < length;) {
      uint64_t n = std::min<uint64_t>(length - done, 1 << 20);
      to_.write_at(to + done, to_.read(from + done, n, "compacted member", buf));
      done += n;
    }
  }
  void truncate(uint64_t size) override { to_.truncate(size); }

 private:
  const ScratchFile& from_;
  ScratchFile& to_;
};

// Where the bytes that compaction moved land in the output, each a start for a
// deflater's block grid (parallel_deflate.hpp's restarts).
std::vector<uint64_t> moved_starts(const CompactionPlan& c) {
  std::vector<uint64_t> starts;
  for (const auto& k : c.copies)
    if (k.to != k.from && k.length > 0) starts.push_back(k.to);
  std::sort(starts.begin(), starts.end());
  return starts;
}

// Gives the zeroed whole blocks of each freed range back to the file system.
void punch_holes(int fd, const RewritePlan& plan, uint64_t block) {
  for (const auto& c : plan.containers) {
    if (!c.changes()) continue;
    auto [from, to] = c.freed();
    uint64_t a = (from + block - 1) / block * block, b = to / block * block;
    if (a >= b) continue;
    if (::fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(a), static_cast<off_t>(b - a)) !=
        0)
      return;  // not supported here (tmpfs before 3.5, some FUSE): the zeros stay written
  }
}

// The report says what compaction frees, or why the file keeps its size.
void note_compaction(FileOutcome& f, const CompactionPlan& c, const PruneOptions& opts) {
  if (!opts.compact || f.removed_bytes == 0) return;
  f.size_after = c.new_size ? c.new_size : f.size;
  f.compaction = c.refused;
  f.note_header_reused = c.note_header_reused;
}

uint64_t allocated(int fd) {
  struct stat st {};
  return ::fstat(fd, &st) == 0 ? static_cast<uint64_t>(st.st_blocks) * 512 : 0;
}

}  // namespace

StagedOutput::StagedOutput(fs::path out) : out_(std::move(out)), tmp_(out_) {
  tmp_ += fmt::format("{}{}", kTempSuffix, ::getpid());
  guard_.emplace(tmp_);  // before it exists: no moment a signal could leave it
  fd_ = ::open(tmp_.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd_ < 0) throw_system_error(out_, "create", errno);  // the output a user asked for, not the temporary name
}

StagedOutput::~StagedOutput() {
  if (fd_ >= 0) ::close(fd_);
  if (!tmp_.empty()) ::unlink(tmp_.c_str());
}

void StagedOutput::commit() {
  if (::close(std::exchange(fd_, -1)) != 0) throw_system_error(out_, "write", errno);
  if (::rename(tmp_.c_str(), out_.c_str()) != 0) throw_system_error(out_, "replace", errno);
  tmp_.clear();
  guard_.reset();
}

void copy_file_atomically(const fs::path& in, const fs::path& out) {
  Fd src;
  src.fd = ::open(in.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (src.fd < 0 || ::fstat(src.fd, &st) != 0) throw_system_error(in, "open", errno);
  StagedOutput tmp(out);
  clone_into(src.fd, tmp.fd(), static_cast<uint64_t>(st.st_size), in, out);
  if (::fchmod(tmp.fd(), st.st_mode & 07777) != 0) throw_system_error(out, "set the mode of", errno);
  tmp.commit();
}

void copy_file_new(const fs::path& in, const fs::path& out) {
  Fd src, dst;
  src.fd = ::open(in.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (src.fd < 0 || ::fstat(src.fd, &st) != 0) throw_system_error(in, "open", errno);
  dst.fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, st.st_mode & 07777);
  if (dst.fd < 0) throw_system_error(out, "create", errno);
  clone_into(src.fd, dst.fd, static_cast<uint64_t>(st.st_size), in, out);
  if (::fchmod(dst.fd, st.st_mode & 07777) != 0) throw_system_error(out, "set the mode of", errno);  // umask aside
}

FileOutcome prune_elf_bytes(std::string shown, std::span<uint8_t> bytes, const PruneOptions& opts) {
  auto elf = try_open_elf(ByteSlice(bytes.data(), bytes.size()));
  if (!elf) throw_format_error("not an ELF file");
  RewritePlan plan = plan_rewrite(*elf, opts.targets, opts.keep_ptx);
  FileOutcome f = outcome_of(std::move(shown), bytes.size(), plan);
  if (opts.dry_run || !plan.changes()) return f;
  SliceReader source(ByteSlice(bytes.data(), bytes.size()));
  BufferSink sink(bytes);
  apply_rewrite(plan, source, sink);
  return f;
}

FileOutcome prune_elf_scratch_into(std::string shown, const ScratchFile& source, ScratchFile& out,
                                   const PruneOptions& opts, std::vector<uint64_t>* moved) {
  // The ELF reader keeps its reader alive: a non-owning handle on the file.
  std::shared_ptr<const ByteReader> reader(std::shared_ptr<void>(), &source);
  auto elf = try_open_elf(reader);
  if (!elf) throw_format_error("not an ELF file");
  RewritePlan plan = plan_rewrite(*elf, opts.targets, opts.keep_ptx);
  FileOutcome f = outcome_of(std::move(shown), source.size(), plan);
  CompactionPlan compaction =
      opts.compact && plan.changes() ? plan_compaction(*elf, plan, {opts.reuse_note_header}) : CompactionPlan{};
  note_compaction(f, compaction, opts);
  if (opts.dry_run) f.removed_deflated = deflated_removed_estimate(source, plan);
  if (opts.dry_run || !plan.changes()) return f;
  if (compaction.compacts()) {
    CompactScratchSink sink(source, out);
    apply_compaction(compaction, plan, source, sink);
    if (moved) *moved = moved_starts(compaction);
    return f;
  }
  // Entries only move towards the front, each read before it is written over.
  if (&out != &source) out.append_copy_of(source);
  struct Sink : ByteSink {
    ScratchFile& file;
    explicit Sink(ScratchFile& f) : file(f) {}
    void write(uint64_t offset, ByteSlice bytes) override { file.write_at(offset, bytes); }
  } sink(out);
  apply_rewrite(plan, out, sink);
  return f;
}

FileOutcome prune_elf_scratch(std::string shown, ScratchFile& file, const PruneOptions& opts,
                              std::vector<uint64_t>* moved) {
  return prune_elf_scratch_into(std::move(shown), file, file, opts, moved);
}

FileOutcome prune_elf_file(const fs::path& in, const fs::path& out, std::string shown, const PruneOptions& opts) {
  auto reader = std::make_shared<FileReader>(in);
  CompactionPlan compaction;
  RewritePlan plan = blame(in.string(), [&] {
    auto elf = try_open_elf(reader);
    if (!elf) throw_format_error("not an ELF file");
    RewritePlan p = plan_rewrite(*elf, opts.targets, opts.keep_ptx);
    if (opts.compact && p.changes()) compaction = plan_compaction(*elf, p, {opts.reuse_note_header});
    return p;
  });
  FileOutcome f = outcome_of(std::move(shown), reader->size(), plan);
  note_compaction(f, compaction, opts);
  Fd src;
  src.fd = ::open(in.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (src.fd < 0 || ::fstat(src.fd, &st) != 0) throw_system_error(in, "open", errno);
  f.disk_before = static_cast<uint64_t>(st.st_blocks) * 512;
  f.disk_after = f.disk_before;
  if (opts.dry_run) {
    f.removed_deflated = blame(in.string(), [&] { return deflated_removed_estimate(*reader, plan); });
    return f;
  }
  if (!plan.changes()) {
    if (in != out) (opts.fresh_output ? copy_file_new : copy_file_atomically)(in, out);
    return f;
  }
  StagedOutput tmp(out);
  if (compaction.compacts()) {
    CompactFdSink sink(src.fd, tmp.fd(), in, out);
    blame(in.string(), [&] { apply_compaction(compaction, plan, *reader, sink); });
  } else {
    clone_into(src.fd, tmp.fd(), reader->size(), in, out);
    FdSink sink(tmp.fd(), out);
    blame(in.string(), [&] { apply_rewrite(plan, *reader, sink); });
    punch_holes(tmp.fd(), plan, st.st_blksize > 0 ? static_cast<uint64_t>(st.st_blksize) : 4096);
  }
  if (::fchmod(tmp.fd(), st.st_mode & 07777) != 0) throw_system_error(out, "set the mode of", errno);
  f.disk_after = allocated(tmp.fd());
  tmp.commit();
  return f;
}

}  // namespace tailor
