// tailor parse FILE...: print each file's Nix normal form, byte for byte what
// `nix-instantiate --parse FILE` prints; syntax errors are reported per file.
#include <fcntl.h>
#include <cerrno>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <ostream>
#include <string>
#include <unordered_map>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "nix/normal_form.hpp"
#include "util/exit_status.hpp"
#include "util/read_file.hpp"

namespace tailor {

namespace {

// Reads \a file into \a buf (reused across files: one allocation per run, not
// per file); a directory means its default.nix, as for nix-instantiate.
// \a symlink tells whether the file named is a symbolic link (saves an lstat).
bool read_nix_file(std::string& file, std::string& buf, bool& symlink) {
  int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  symlink = fd < 0 && errno == ELOOP;
  if (symlink) fd = open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st;
  if (fstat(fd, &st) != 0) return close(fd), false;
  if (S_ISDIR(st.st_mode)) {
    close(fd);
    file = (std::filesystem::path(file) / "default.nix").string();
    symlink = true;  // not known without an lstat: let the path context find out
    fd = open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) return fd >= 0 && close(fd), false;
  }
  const bool sized = S_ISREG(st.st_mode) && st.st_size > 0;
  buf.resize(sized ? static_cast<size_t>(st.st_size) : 4096);
  size_t n = 0;
  for (;;) {
    if (sized && n == static_cast<size_t>(st.st_size)) break;  // all of it: no read() for the end
    if (n == buf.size()) buf.resize(buf.size() * 2);
    ssize_t r = read(fd, buf.data() + n, buf.size() - n);
    if (r < 0) return close(fd), false;
    if (r == 0) break;
    n += static_cast<size_t>(r);
  }
  close(fd);
  buf.resize(n);
  return true;
}

}  // namespace

int cmd_parse(CommandContext& ctx) {
  CLI::App app{"Print the Nix normal form of each FILE (the text `nix-instantiate --parse` prints).", "parse"};
  std::vector<std::string> files;
  app.add_option("FILE", files, "Nix files (a directory means its default.nix)")->required();
  if (auto rc = parse_args(app, ctx)) return *rc;

  // One symbol table for the whole run, as Nix has one per process (symbols.hpp).
  nix::SymbolTable symbols;
  nix::PathContextCache contexts;
  std::string text;
  std::string out;  // written in large blocks: per-file writes cost more than parsing
  int status = kExitOk;
  for (std::string file : files) {
    bool symlink = false;
    if (!read_nix_file(file, text, symlink)) {
      ctx.out.write(out.data(), static_cast<std::streamsize>(out.size()));
      out.clear();
      Diagnostic d;
      d.path = file;
      d.message = "cannot read the file";
      ctx.err << d.render();
      status = kExitBadInput;
      continue;
    }
    if (std::memchr(text.data(), 0, text.size())) {  // a binary file: say so rather than echo it
      ctx.out.write(out.data(), static_cast<std::streamsize>(out.size()));
      out.clear();
      try {
        require_text(file, text);
      } catch (const DiagnosticError& e) {
        ctx.err << e.diagnostic().render();
      }
      status = kExitBadInput;
      continue;
    }
    nix::NormalForm nf = nix::normal_form(file, text, contexts.get(file, symlink), symbols);
    if (nf.error) {
      ctx.out.write(out.data(), static_cast<std::streamsize>(out.size()));
      out.clear();
      ctx.err << nf.error->render();
      status = kExitBadInput;
      continue;
    }
    out += nf.text;
    if (out.size() >= (1u << 16)) {
      ctx.out.write(out.data(), static_cast<std::streamsize>(out.size()));
      out.clear();
    }
  }
  ctx.out.write(out.data(), static_cast<std::streamsize>(out.size()));
  return status;
}

}  // namespace tailor
