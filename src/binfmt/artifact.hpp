#pragma once
/// A build artifact as inspect, prune and verify walk it: one ELF file, a
/// directory of files, or a wheel. One dispatch, one directory walk, one test
/// for an ELF member and one RECORD reader serve all three commands; what each
/// does with an ELF file is its own. for_each_elf is the walk for a reader;
/// prune, which rewrites on every core, takes the pieces it is made of.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "binfmt/elf_file.hpp"
#include "binfmt/mapped_file.hpp"
#include "binfmt/wheel.hpp"
#include "util/diagnostic.hpp"
#include "util/enum_names.hpp"

namespace tailor {

/// What a path given to inspect, prune or verify holds.
enum class ArtifactKind {
  file,       ///< an ELF file
  directory,  ///< a folder of files
  wheel,      ///< a zip archive (open_wheel_file)
  other,      ///< another file, not yet opened: a wheel or nothing tailor reads
};

inline constexpr EnumNames<ArtifactKind, 4> kArtifactKinds{{{{ArtifactKind::file, "file"},
                                                             {ArtifactKind::directory, "directory"},
                                                             {ArtifactKind::wheel, "wheel"},
                                                             {ArtifactKind::other, "other"}}}};
/// "file", "directory", "wheel", "other": as prune records and inspect's JSON spell it.
constexpr std::string_view kind_name(ArtifactKind k) { return kArtifactKinds.name(k); }

/// Whether the file at \a path starts with the ELF magic (false when it cannot be read).
bool is_elf_file(const std::filesystem::path& path);

/// \a path's kind before anything is opened: directory, file (ELF magic) or
/// other. Throws DiagnosticError "no such file or directory" naming \a path.
ArtifactKind artifact_kind(const std::filesystem::path& path);

/// A path given to inspect, prune or verify, with its kind read once.
struct Artifact {
  std::filesystem::path path;
  ArtifactKind kind = ArtifactKind::other;
};

/// \a path and its kind (artifact_kind); throws as artifact_kind does.
inline Artifact open_artifact(const std::filesystem::path& path) { return {path, artifact_kind(path)}; }

/// One entry of a directory artifact.
struct TreeEntry {
  enum class Type {
    elf,        ///< a regular file that starts with the ELF magic
    file,       ///< any other regular file
    directory,  ///< a folder
    symlink,    ///< a link, never followed
    special,    ///< a FIFO, socket or device
  };
  std::filesystem::path path;  ///< on disk
  std::string rel;             ///< relative to the root, '/'-separated
  Type type = Type::file;
};

/// Every entry under \a root, sorted by path; regular files told ELF or not by
/// their first bytes (read on every core). With \a skip_unreadable, folders that
/// cannot be read are passed over; else that, like any failure of the walk,
/// throws DiagnosticError "cannot walk the directory" naming \a root.
std::vector<TreeEntry> list_artifact_tree(const std::filesystem::path& root, bool skip_unreadable);

/// A wheel file: its mapping and the archive over it.
struct WheelFile {
  std::unique_ptr<MappedFile> mapping;
  Wheel wheel;
};

/// Opens \a path as a wheel within \a limits. Throws DiagnosticError naming
/// \a path for a corrupt archive, one over the limits, or a file that is no
/// zip archive at all ("not an ELF file, a wheel or a directory"; the hint says
/// what \a command, "tailor inspect", reads).
WheelFile open_wheel_file(const std::filesystem::path& path, const WheelLimits& limits, std::string_view command);

/// Whether the member \a m of \a w is an ELF file, by its first bytes (a folder is not).
bool is_elf_member(const Wheel& w, const WheelMember& m);

/// A wheel's RECORD (PEP 376 and 427): which member it is, and its lines.
struct WheelRecord {
  std::string name;                ///< "pkg-1.0.dist-info/RECORD"
  std::vector<std::string> lines;  ///< without their line ends ("\r\n" or "\n")

  /// The folder it is in: "pkg-1.0.dist-info".
  std::string dist_info() const { return name.substr(0, name.find('/')); }
};

/// The RECORD of \a w: the *.dist-info/RECORD at the archive's top; nullopt
/// when it has none. Throws DiagnosticError when it cannot be inflated.
std::optional<WheelRecord> read_record(const Wheel& w);

/// The path field of a RECORD line: everything before the last two commas
/// (a path may hold commas), without the quotes CSV may put around it.
std::string record_path(std::string_view line);

/// What for_each_elf calls for the files of an artifact, in walking order.
struct ElfVisitor {
  /// An ELF file, opened; \a rel is its path in the artifact ("" for a lone file).
  std::function<void(const std::string& rel, const ElfFile& elf)> elf;
  /// Any other file and its size (a member's unpacked size). May be left empty.
  std::function<void(const std::string& rel, uint64_t size)> other;
  /// An ELF file of a directory that could not be read (what elf threw
  /// included): the walk goes on. Left empty, the error is thrown.
  std::function<void(const Diagnostic& why)> broken;
};

/// Calls \a v for every file of \a path: one ELF file; each regular file of a
/// directory, in path order (links not followed, unreadable folders passed
/// over); each member of a wheel opened within \a limits but its folders, in
/// archive order, ELF ones inflated one at a time into temporary files (a
/// library of gigabytes costs kilobytes of memory). Errors name the file at
/// fault, a member as WHEEL!MEMBER; \a command is the reader a file of no kind
/// is refused for. Returns \a path's kind: file, directory or wheel.
ArtifactKind for_each_elf(const std::filesystem::path& path, const ElfVisitor& v, const WheelLimits& limits = {},
                          std::string_view command = "tailor");
/// The same walk over \a a, whose kind is already read.
ArtifactKind for_each_elf(const Artifact& a, const ElfVisitor& v, const WheelLimits& limits = {},
                          std::string_view command = "tailor");

/// The members of the opened wheel \a w, as for_each_elf visits them; \a shown
/// names the wheel in errors.
void for_each_elf(const Wheel& w, const std::string& shown, const ElfVisitor& v);

}  // namespace tailor
