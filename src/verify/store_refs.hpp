#pragma once
/// Finds Nix store references in build outputs, the way Nix's own reference
/// scanner does: `/nix/store/` followed by a 32-character base-32 hash and a
/// name. Used to check that toolchain stripping removed gcc and binutils.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "binfmt/byte_slice.hpp"

namespace tailor {

struct StoreRef {
  std::string file;  ///< relative to the scanned root
  std::string path;  ///< "/nix/store/<hash>-gcc-13.2.0"
  std::string name;  ///< "gcc-13.2.0"
};

/// The distinct store paths referenced in \a bytes (shown as \a file).
std::vector<StoreRef> scan_store_refs(std::string_view file, ByteSlice bytes);

/// Whether \a name is a compiler toolchain's store path (gcc, gcc-wrapper,
/// binutils), not a runtime library output such as gcc-13.2.0-lib.
bool is_toolchain_name(std::string_view name);

/// Toolchain references in every regular file under \a root (or \a root itself).
std::vector<StoreRef> find_toolchain_refs(const std::filesystem::path& root);

}  // namespace tailor
