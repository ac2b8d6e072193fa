#include "nix/normal_form.hpp"

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cstdlib>
#include <filesystem>

#include "nix/parser.hpp"
#include "nix/printer.hpp"
#include "nix/scope.hpp"

namespace tailor::nix {

NormalForm normal_form(std::string_view path, std::string_view text, const PathContext& ctx, SymbolTable& symbols) {
  NormalForm r;
  ParseResult parsed = parse(path, text, symbols);
  if (parsed.error) {
    r.error = std::move(parsed.error);
    return r;
  }
  // One tree's nodes serve every file of a run (see CoreTree::clear).
  static thread_local CoreTree core;
  core.clear();
  if (auto d = lower(*parsed.expr, ctx, symbols, path, text, core)) {
    r.error = std::move(d);
    return r;
  }
  parsed = {};  // the core tree holds what is left to do: the printer reuses the surface tree's memory
  if (auto d = check_scopes(*core.root, path, text)) {
    r.error = std::move(d);
    return r;
  }
  r.text = print_normal_form(*core.root, symbols, text.size() + 64);
  r.text += '\n';
  return r;
}

PathContext path_context_for(const std::string& file) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p = fs::absolute(file, ec);
  // Nix resolves a symlinked file to its target before taking the directory.
  for (int i = 0; i < 32 && fs::is_symlink(p, ec); ++i) {
    fs::path target = fs::read_symlink(p, ec);
    if (ec) break;
    p = target.is_absolute() ? target : p.parent_path() / target;
  }
  PathContext ctx;
  ctx.base_dir = canon_path(p.parent_path().string());
  if (const char* home = std::getenv("HOME"); home && *home) {
    ctx.home = home;
  } else if (const passwd* pw = getpwuid(getuid()); pw && pw->pw_dir) {
    ctx.home = pw->pw_dir;
  }
  return ctx;
}

const PathContext& PathContextCache::get(const std::string& file, bool maybe_symlink) {
  struct stat st;
  if (maybe_symlink && (lstat(file.c_str(), &st) != 0 || S_ISLNK(st.st_mode))) return scratch_ = path_context_for(file);
  size_t slash = file.rfind('/');
  std::string dir = slash == std::string::npos ? std::string() : file.substr(0, slash + 1);
  auto it = by_dir_.find(dir);
  if (it == by_dir_.end()) it = by_dir_.emplace(dir, path_context_for(file)).first;
  return it->second;
}

}  // namespace tailor::nix
