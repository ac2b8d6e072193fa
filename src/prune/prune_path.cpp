#include "prune/prune_path.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>

#include <fmt/format.h>

#include "binfmt/mapped_file.hpp"
#include "binfmt/wheel.hpp"
#include "prune/prune_json.hpp"
#include "prune/zip_writer.hpp"
#include "util/diagnostic.hpp"

namespace tailor {

namespace fs = std::filesystem;

namespace {

bool is_elf_magic(const uint8_t* p, size_t n) { return n >= 4 && p[0] == 0x7f && p[1] == 'E' && p[2] == 'L' && p[3] == 'F'; }

bool is_elf_file(const fs::path& p) {
  char magic[4] = {};
  std::ifstream f(p, std::ios::binary);
  f.read(magic, 4);
  return is_elf_magic(reinterpret_cast<const uint8_t*>(magic), static_cast<size_t>(f.gcount()));
}

[[noreturn]] void fail(const fs::path& p, std::string message, std::string hint = "") {
  Diagnostic d;
  d.path = p.string();
  d.message = std::move(message);
  d.hint = std::move(hint);
  throw DiagnosticError(std::move(d));
}

void keep_outcome(PruneReport& rep, FileOutcome f) {
  if (f.fatbin_bytes || !f.refused.empty()) rep.files.push_back(std::move(f));
  else rep.other_files++;
}

// One file of a directory: pruned, or reported refused and left (copied) as it was.
void prune_member_file(PruneReport& rep, const fs::path& src, const fs::path& dst, const std::string& rel,
                       const PruneOptions& opts) {
  if (!is_elf_file(src)) {
    rep.other_files++;
    if (!opts.dry_run && src != dst) copy_file_atomically(src, dst);
    return;
  }
  try {
    keep_outcome(rep, prune_elf_file(src, dst, rel, opts));
  } catch (const DiagnosticError& e) {
    FileOutcome f;
    f.path = rel;
    f.refused = e.diagnostic().message;
    rep.files.push_back(std::move(f));
    if (!opts.dry_run && src != dst) copy_file_atomically(src, dst);
  }
}

void prune_tree(PruneReport& rep, const PruneRequest& r) {
  rep.kind = "directory";
  const bool copy = !r.out.empty() && !r.opts.dry_run;
  fs::path stage = r.out;
  stage += fmt::format(".tailor-tmp-{}", ::getpid());
  std::error_code ec;
  struct Cleanup {
    fs::path p;
    ~Cleanup() {
      std::error_code e;
      if (!p.empty()) fs::remove_all(p, e);
    }
  } cleanup;
  if (copy) {
    if (!fs::create_directory(stage, ec)) fail(stage, fmt::format("cannot create the directory: {}", ec.message()));
    cleanup.p = stage;
  }
  std::vector<fs::path> entries;
  for (auto it = fs::recursive_directory_iterator(r.path, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    entries.push_back(it->path());
  if (ec) fail(r.path, fmt::format("cannot walk the directory: {}", ec.message()));
  std::sort(entries.begin(), entries.end());
  for (const auto& p : entries) {
    std::string rel = p.lexically_relative(r.path).generic_string();
    fs::path dst = copy ? stage / rel : p;
    fs::file_status st = fs::symlink_status(p);
    if (fs::is_symlink(st)) {
      if (copy) fs::copy_symlink(p, dst);
    } else if (fs::is_directory(st)) {
      if (copy) fs::create_directory(dst, p);
    } else if (fs::is_regular_file(st)) {
      prune_member_file(rep, p, dst, rel, r.opts);
    }
  }
  if (copy) {
    fs::permissions(stage, fs::status(r.path).permissions(), ec);
    fs::rename(stage, r.out, ec);
    if (ec) fail(r.out, fmt::format("cannot create: {}", ec.message()));
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
      if (c == '\n') r.lines.push_back(std::exchange(line, "")); else if (c != '\r') line.push_back(static_cast<char>(c));
    }
    if (!line.empty()) r.lines.push_back(line);
    return r;
  }
  fail(path, "not a wheel: no *.dist-info/RECORD", "tailor prune rewrites wheels (PEP 427) and their RECORD");
}

// RECORD's path field: everything before the last two commas.
std::string record_path(const std::string& line) {
  size_t b = line.rfind(',');
  size_t a = b == std::string::npos || b == 0 ? std::string::npos : line.rfind(',', b - 1);
  std::string p = a == std::string::npos ? line : line.substr(0, a);
  if (p.size() >= 2 && p.front() == '"' && p.back() == '"') p = p.substr(1, p.size() - 2);
  return p;
}

void prune_wheel(PruneReport& rep, const PruneRequest& r, const Wheel& w) {
  rep.kind = "wheel";
  Record record = read_record(w, r.path);
  std::optional<StagedOutput> out;
  std::optional<ZipWriter> zip;
  if (!r.opts.dry_run) {
    out.emplace(r.out);
    zip.emplace(out->fd());
  }
  const std::string dist_info = record.name.substr(0, record.name.find('/'));
  const std::string json_name = dist_info + "/tailor-prune.json";
  std::map<std::string, std::string> new_lines;  // path -> RECORD line
  for (const auto& m : w.members) {
    if (m.name == record.name || m.name == json_name) continue;  // both written anew last
    std::vector<uint8_t> head = m.is_directory() ? std::vector<uint8_t>{} : w.read_prefix(m, 4);
    if (!is_elf_magic(head.data(), head.size())) {
      rep.other_files++;
      if (zip) zip->add_stored(m, w.stored(m));
      continue;
    }
    std::vector<uint8_t> bytes = w.read(m);  // one library in memory at a time
    FileOutcome f;
    try {
      f = prune_elf_bytes(m.name, bytes, r.opts);
    } catch (const DiagnosticError& e) {
      f.path = m.name;
      f.refused = e.diagnostic().message;
    }
    f.compressed_before = f.compressed_after = m.compressed_size;
    if (zip && f.removed_bytes && f.refused.empty()) {
      ByteSlice data(bytes.data(), bytes.size());
      f.compressed_after = zip->add_deflated(m.name, data, m);
      new_lines[m.name] = fmt::format("{},{},{}", m.name, record_hash(data), bytes.size());
    } else if (zip) {
      zip->add_stored(m, w.stored(m));
    }
    keep_outcome(rep, std::move(f));
  }
  if (!zip) return;
  std::string json = to_json(rep, false).dump(2) + "\n";
  WheelMember like;
  like.external_attributes = 0100644u << 16;
  zip->add_deflated(json_name, ByteSlice::of(json), like);
  std::string text;
  for (const auto& line : record.lines) {
    std::string p = record_path(line);
    if (p == json_name) continue;
    auto it = new_lines.find(p);
    text += (it == new_lines.end() ? line : it->second) + "\n";
  }
  text += fmt::format("{},{},{}\n", json_name, record_hash(ByteSlice::of(json)), json.size());
  zip->add_deflated(record.name, ByteSlice::of(text), like);
  zip->finish();
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
  if (ec || !fs::exists(st)) fail(r.path, "no such file or directory");
  if (!r.out.empty() && !r.opts.dry_run && fs::exists(fs::symlink_status(r.out)))
    fail(r.out, "the output exists already", "tailor prune never overwrites: remove it, or choose another -o");
  if (fs::is_directory(st)) {
    prune_tree(rep, r);
  } else if (is_elf_file(r.path)) {
    rep.kind = "file";
    const fs::path& out = r.out.empty() ? r.path : r.out;
    keep_outcome(rep, prune_elf_file(r.path, out, "", r.opts));
  } else {
    MappedFile file(r.path);
    std::optional<Wheel> w;
    try {
      w = try_open_wheel(file.bytes());
    } catch (const DiagnosticError& e) {
      fail(r.path, e.diagnostic().message);
    }
    if (!w) fail(r.path, "not an ELF file, a wheel or a directory",
                 "tailor prune reads shared libraries (.so), wheels (.whl) and folders of them");
    if (r.out.empty() && !r.opts.dry_run) fail(r.path, "wheels are not pruned in place", "name the new wheel with -o");
    try {
      prune_wheel(rep, r, *w);
    } catch (const DiagnosticError& e) {
      if (!e.diagnostic().path.empty()) throw;
      fail(r.path, e.diagnostic().message);
    }
  }
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return rep;
}

}  // namespace tailor
