// tailor parse FILE... [--json]: print each file's Nix normal form, byte for byte what
// `nix-instantiate --parse FILE` prints; syntax errors are reported per file.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <unordered_map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/session.hpp"
#include "nix/normal_form.hpp"
#include "util/exit_status.hpp"
#include "util/json_text.hpp"
#include "util/read_file.hpp"

namespace tailor {

namespace {

// Reads \a file into \a buf (reused across files: one allocation per run, not
// per file); a directory means its default.nix, as for nix-instantiate.
// \a symlink tells whether the file named is a symbolic link (saves an lstat).
// Returns nullopt when it could, else why not (empty: it cannot be opened):
// only a regular file no larger than the input limit is read, and a
// FIFO never blocks the open.
std::optional<std::string> read_nix_file(std::string& file, std::string& buf, bool& symlink) {
  constexpr int kFlags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;
  int fd = open(file.c_str(), kFlags | O_NOFOLLOW);
  symlink = fd < 0 && errno == ELOOP;
  if (symlink) fd = open(file.c_str(), kFlags);
  if (fd < 0) return std::string();
  struct stat st;
  if (fstat(fd, &st) != 0) return close(fd), std::string();
  if (S_ISDIR(st.st_mode)) {
    close(fd);
    file = (std::filesystem::path(file) / "default.nix").string();
    symlink = true;  // not known without an lstat: let the path context find out
    fd = open(file.c_str(), kFlags);
    if (fd < 0) return std::string();
    if (fstat(fd, &st) != 0) return close(fd), std::string();
  }
  if (!S_ISREG(st.st_mode)) return close(fd), fmt::format("{}, not a regular file", file_kind(st.st_mode));
  std::optional<std::string> why = read_bounded(fd, static_cast<uint64_t>(st.st_size), buf);
  close(fd);
  return why;
}

nlohmann::ordered_json error_json(const std::string& file, const Diagnostic& d) {
  nlohmann::ordered_json pos = nullptr;
  if (d.pos.line > 0) pos = {{"line", d.pos.line}, {"column", d.pos.column}};
  return {{"path", file}, {"normal_form", nullptr}, {"error", {{"message", d.message}, {"at", pos}}}};
}

struct ParseRun final : CommandRun {
  std::vector<std::string> files;
  bool json = false;
  void define(CLI::App& app) override {
    app.description("Print the Nix normal form of each FILE (the text `nix-instantiate --parse` prints).");
    app.add_option("FILE", files, "Nix files (a directory means its default.nix)")->required();
    app.add_flag("--json", json, "print each file's normal form or error as one JSON object");
  }
  int run(Session& s) override;
};

// One symbol table for the whole run, as Nix has one per process (symbols.hpp).
struct Parser {
  nix::SymbolTable symbols;
  nix::PathContextCache contexts;
  std::string text;

  // The normal form of \a file into \a nf, or the diagnostic of why it has none.
  std::optional<Diagnostic> normal_form(std::string file, std::string& nf) {
    bool symlink = false;
    if (auto why = read_nix_file(file, text, symlink)) {
      Diagnostic d;
      d.path = file;
      d.message = why->empty() ? "cannot read the file" : "cannot read the file: " + *why;
      if (why->find("limit") != std::string::npos) d.hint = "raise the limit with --max-input-size BYTES";
      return d;
    }
    if (std::memchr(text.data(), 0, text.size())) {  // a binary file: say so rather than echo it
      try {
        require_text(file, text);
      } catch (const DiagnosticError& e) {
        return e.diagnostic();
      }
      return std::nullopt;
    }
    nix::NormalForm result = nix::normal_form(file, text, contexts.get(file, symlink), symbols);
    if (result.error) return *result.error;
    nf = std::move(result.text);
    return std::nullopt;
  }
};

int ParseRun::run(Session& s) {
  Parser parser;
  std::string out;  // written in large blocks: per-file writes cost more than parsing
  int status = kExitOk;
  nlohmann::ordered_json results = nlohmann::ordered_json::array();  // --json
  for (const std::string& file : files) {
    std::string nf;
    auto error = parser.normal_form(file, nf);
    if (error) {  // a file that has no normal form: its diagnostic, after what came before it
      status = kExitBadInput;
      if (json) {
        results.push_back(error_json(file, *error));
        continue;
      }
      s.out.write(out.data(), static_cast<std::streamsize>(out.size()));
      out.clear();
      s.err << error->render();
      continue;
    }
    if (json) {
      results.push_back({{"path", file}, {"normal_form", nf}, {"error", nullptr}});
      continue;
    }
    out += nf;
    if (out.size() >= (1u << 16)) {
      s.out.write(out.data(), static_cast<std::streamsize>(out.size()));
      out.clear();
    }
  }
  if (json) out = json_text(nlohmann::ordered_json{{"files", results}});
  s.out.write(out.data(), static_cast<std::streamsize>(out.size()));
  return status;
}

}  // namespace

std::unique_ptr<CommandRun> make_parse() { return std::make_unique<ParseRun>(); }

}  // namespace tailor
