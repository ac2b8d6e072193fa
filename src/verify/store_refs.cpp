#include "verify/store_refs.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <set>

#include "binfmt/artifact.hpp"
#include "binfmt/mapped_file.hpp"

namespace tailor {

namespace {

constexpr std::string_view kStore = "/nix/store/";
constexpr size_t kHashLength = 32;

// Nix's base-32 alphabet: digits and lower-case letters without e, o, u, t.
bool is_hash_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z' && c != 'e' && c != 'o' && c != 'u' && c != 't');
}

bool is_name_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || std::strchr("+-._?=", c);
}

}  // namespace

std::vector<StoreRef> scan_store_refs(std::string_view file, ByteSlice bytes) {
  std::string_view text = bytes.as_string_view();
  std::set<std::string> seen;
  std::vector<StoreRef> out;
  const std::boyer_moore_horspool_searcher searcher(kStore.begin(), kStore.end());
  for (auto it = text.begin();;) {
    auto hit = std::search(it, text.end(), searcher);
    if (hit == text.end()) break;
    size_t at = static_cast<size_t>(hit - text.begin()) + kStore.size();
    it = hit + 1;
    if (text.size() - at < kHashLength + 2) continue;
    if (!std::all_of(text.begin() + at, text.begin() + at + kHashLength, is_hash_char)) continue;
    if (text[at + kHashLength] != '-') continue;
    size_t name_start = at + kHashLength + 1, end = name_start;
    while (end < text.size() && is_name_char(text[end])) ++end;
    if (end == name_start) continue;
    std::string path(text.substr(at - kStore.size(), end - at + kStore.size()));
    if (!seen.insert(path).second) continue;
    out.push_back({std::string(file), path, std::string(text.substr(name_start, end - name_start))});
  }
  return out;
}

bool is_toolchain_name(std::string_view name) {
  auto after = [&](std::string_view prefix) -> std::string_view {
    return name.starts_with(prefix) ? name.substr(prefix.size()) : std::string_view();
  };
  if (name.starts_with("gcc-wrapper-") || name.starts_with("binutils-wrapper-") || name.starts_with("binutils-"))
    return !name.ends_with("-lib");
  // "gcc-13.2.0" is the compiler; "gcc-13.2.0-lib", "gcc-13.2.0-libgcc" are runtime outputs.
  std::string_view v = after("gcc-");
  if (v.empty() || !(v[0] >= '0' && v[0] <= '9')) return false;
  return v.find('-') == std::string_view::npos;
}

std::vector<StoreRef> find_toolchain_refs(const std::filesystem::path& root) {
  namespace fs = std::filesystem;
  std::vector<StoreRef> out;
  // Chunks with an overlap longer than any store path, so none is cut in two;
  // a pread loop keeps memory flat on 450 MB libraries.
  constexpr uint64_t kChunk = 8u << 20, kOverlap = 1024;
  auto scan = [&](const fs::path& p, const std::string& shown) {
    FileReader f(p);
    std::vector<uint8_t> buf;
    std::set<std::string> seen;
    for (uint64_t at = 0; at < f.size();) {
      ByteSlice chunk = f.read(at, std::min(kChunk, f.size() - at), "file", buf);
      for (auto& r : scan_store_refs(shown, chunk))
        if (is_toolchain_name(r.name) && seen.insert(r.path).second) out.push_back(std::move(r));
      if (at + chunk.size() >= f.size()) break;
      at += chunk.size() - kOverlap;
    }
  };
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    scan(root, root.filename().string());
    return out;
  }
  // Every regular file, ELF or not; links are not followed.
  for (const TreeEntry& e : list_artifact_tree(root, true))
    if (e.type == TreeEntry::Type::elf || e.type == TreeEntry::Type::file) scan(e.path, e.rel);
  return out;
}

}  // namespace tailor
