// tailor parse FILE... [--json]: print each file's Nix normal form, byte for byte what
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

#include <nlohmann/json.hpp>

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

nlohmann::ordered_json error_json(const std::string& file, const Diagnostic& d) {
  nlohmann::ordered_json pos = nullptr;
  if (d.pos.line > 0) pos = {{"line", d.pos.line}, {"column", d.pos.column}};
  return {{"path", file}, {"normal_form", nullptr}, {"error", {{"message", d.message}, {"at", pos}}}};
}

}  // namespace

int cmd_parse(CommandContext& ctx) {
  CLI::App app{"Print the Nix normal form of each FILE (the text `nix-instantiate --parse` prints).", "parse"};
  std::vector<std::string> files;
  bool json = false;
  app.add_option("FILE", files, "Nix files (a directory means its default.nix)")->required();
  app.add_flag("--json", json, "print each file's normal form or error as one JSON object");
  if (auto rc = parse_args(app, ctx)) return *rc;

  // One symbol table for the whole run, as Nix has one per process (symbols.hpp).
  nix::SymbolTable symbols;
  nix::PathContextCache contexts;
  std::string text;
  std::string out;  // written in large blocks: per-file writes cost more than parsing
  int status = kExitOk;
  nlohmann::ordered_json results = nlohmann::ordered_json::array();  // --json
  // A file that has no normal form: its diagnostic, after what came before it.
  auto fail = [&](const std::string& file, const Diagnostic& d) {
    status = kExitBadInput;
    if (json) {
      results.push_back(error_json(file, d));
      return;
    }
    ctx.out.write(out.data(), static_cast<std::streamsize>(out.size()));
    out.clear();
    ctx.err << d.render();
  };
  for (std::string file : files) {
    bool symlink = false;
    const std::string named = file;
    if (!read_nix_file(file, text, symlink)) {
      Diagnostic d;
      d.path = file;
      d.message = "cannot read the file";
      fail(named, d);
      continue;
    }
    if (std::memchr(text.data(), 0, text.size())) {  // a binary file: say so rather than echo it
      try {
        require_text(file, text);
      } catch (const DiagnosticError& e) {
        fail(named, e.diagnostic());
      }
      continue;
    }
    nix::NormalForm nf = nix::normal_form(file, text, contexts.get(file, symlink), symbols);
    if (nf.error) {
      fail(named, *nf.error);
      continue;
    }
    if (json) {
      results.push_back({{"path", named}, {"normal_form", nf.text}, {"error", nullptr}});
      continue;
    }
    out += nf.text;
    if (out.size() >= (1u << 16)) {
      ctx.out.write(out.data(), static_cast<std::streamsize>(out.size()));
      out.clear();
    }
  }
  if (json) out = nlohmann::ordered_json{{"files", results}}.dump(2) + "\n";
  ctx.out.write(out.data(), static_cast<std::streamsize>(out.size()));
  return status;
}

}  // namespace tailor
