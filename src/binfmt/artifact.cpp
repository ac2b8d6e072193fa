#include "binfmt/artifact.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "util/file_error.hpp"
#include "util/parallel_for.hpp"

namespace tailor {

namespace fs = std::filesystem;

bool is_elf_file(const fs::path& p) {
  uint8_t magic[4] = {};
  // Never waits on a FIFO or a device: pread on one fails, and the file is no ELF file.
  int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return false;
  ssize_t n = ::pread(fd, magic, sizeof magic, 0);
  ::close(fd);
  return is_elf_magic(magic, n > 0 ? static_cast<size_t>(n) : 0);
}

ArtifactKind artifact_kind(const fs::path& path) {
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) throw_file_error(path, "no such file or directory");
  if (fs::is_directory(st)) return ArtifactKind::directory;
  return is_elf_file(path) ? ArtifactKind::file : ArtifactKind::other;
}

std::vector<TreeEntry> list_artifact_tree(const fs::path& root, bool skip_unreadable) {
  std::vector<fs::path> paths;
  std::error_code ec;
  auto options = skip_unreadable ? fs::directory_options::skip_permission_denied : fs::directory_options::none;
  for (auto it = fs::recursive_directory_iterator(root, options, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    paths.push_back(it->path());
  if (ec) throw_file_error(root, fmt::format("cannot walk the directory: {}", ec.message()));
  std::sort(paths.begin(), paths.end());
  std::vector<TreeEntry> out(paths.size());
  // Each regular file's first bytes are read on the cores: a cold cache waits on the disk.
  parallel_for(paths.size(), 64, [&](size_t i) {
    TreeEntry& e = out[i];
    e.path = std::move(paths[i]);
    e.rel = e.path.lexically_relative(root).generic_string();
    std::error_code err;
    fs::file_status st = fs::symlink_status(e.path, err);
    e.type = fs::is_symlink(st)         ? TreeEntry::Type::symlink
             : fs::is_directory(st)     ? TreeEntry::Type::directory
             : !fs::is_regular_file(st) ? TreeEntry::Type::special
             : is_elf_file(e.path)      ? TreeEntry::Type::elf
                                        : TreeEntry::Type::file;
  });
  return out;
}

WheelFile open_wheel_file(const fs::path& path, const WheelLimits& limits, std::string_view command) {
  WheelFile f;
  f.mapping = std::make_unique<MappedFile>(path);  // members are inflated from the mapping
  std::optional<Wheel> w = blame(path.string(), [&] { return try_open_wheel(f.mapping->bytes(), limits, true); });
  if (!w)
    throw_file_error(path, "not an ELF file, a wheel or a directory",
                     fmt::format("{} reads shared libraries (.so), wheels (.whl) and folders of them", command));
  f.wheel = std::move(*w);
  f.wheel.release(f.wheel.data);  // the central directory was read: its pages go back
  return f;
}

bool is_elf_member(const Wheel& w, const WheelMember& m) {
  if (m.is_directory()) return false;
  std::vector<uint8_t> head = w.read_prefix(m, 4);
  return is_elf_magic(head.data(), head.size());
}

std::optional<WheelRecord> read_record(const Wheel& w) {
  for (const auto& m : w.members) {
    if (!m.name.ends_with(".dist-info/RECORD") || std::count(m.name.begin(), m.name.end(), '/') != 1) continue;
    std::vector<uint8_t> text = w.read(m);
    WheelRecord r{m.name, {}};
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
  return std::nullopt;
}

std::string record_path(std::string_view line) {
  size_t b = line.rfind(',');
  size_t a = b == std::string_view::npos || b == 0 ? std::string_view::npos : line.rfind(',', b - 1);
  std::string p(a == std::string_view::npos ? line : line.substr(0, a));
  if (p.size() >= 2 && p.front() == '"' && p.back() == '"') p = p.substr(1, p.size() - 2);
  return p;
}

void for_each_elf(const Wheel& w, const std::string& shown, const ElfVisitor& v) {
  const fs::path scratch = fs::temp_directory_path();
  for (const auto& m : w.members) {
    if (m.is_directory()) continue;
    blame(shown + "!" + m.name, [&] {
      if (!is_elf_member(w, m)) {
        if (v.other) v.other(m.name, m.uncompressed_size);
        return;
      }
      // Read header by header from a temporary file: a library of gigabytes costs kilobytes.
      std::shared_ptr<const ByteReader> bytes = w.inflate_to(m, scratch);
      auto elf = try_open_elf(bytes);
      if (!elf) throw_format_error("not an ELF file");
      v.elf(m.name, *elf);
    });
  }
}

ArtifactKind for_each_elf(const fs::path& path, const ElfVisitor& v, const WheelLimits& limits,
                          std::string_view command) {
  return for_each_elf(open_artifact(path), v, limits, command);
}

ArtifactKind for_each_elf(const Artifact& a, const ElfVisitor& v, const WheelLimits& limits, std::string_view command) {
  const fs::path& path = a.path;
  const std::string shown = path.string();
  switch (a.kind) {
    case ArtifactKind::file:
      blame(shown, [&] {
        auto elf = try_open_elf(std::make_shared<FileReader>(path));
        if (!elf) throw_format_error("not an ELF file");  // it was, a moment ago
        v.elf("", *elf);
      });
      return ArtifactKind::file;
    case ArtifactKind::directory:
      for (const TreeEntry& e : list_artifact_tree(path, true)) {
        if (e.type == TreeEntry::Type::file && v.other) {
          std::error_code ec;
          uintmax_t n = fs::file_size(e.path, ec);
          v.other(e.rel, ec ? 0 : n);
        }
        if (e.type != TreeEntry::Type::elf) continue;
        try {  // one broken library must not hide the others
          blame(e.path.string(), [&] {
            auto elf = try_open_elf(std::make_shared<FileReader>(e.path));
            if (!elf) throw_format_error("not an ELF file");
            v.elf(e.rel, *elf);
          });
        } catch (const DiagnosticError& err) {
          if (!v.broken) throw;
          v.broken(err.diagnostic());
        }
      }
      return ArtifactKind::directory;
    case ArtifactKind::wheel:
    case ArtifactKind::other: break;
  }
  WheelFile f = open_wheel_file(path, limits, command);
  blame(shown, [&] { for_each_elf(f.wheel, shown, v); });
  return ArtifactKind::wheel;
}

}  // namespace tailor
