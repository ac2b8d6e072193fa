#include "recipe/recipe_tree.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <mutex>
#include <optional>
#include <set>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "nix/parser.hpp"
#include "recipe/comments.hpp"
#include "recipe/line_index.hpp"
#include "recipe/spelled_name.hpp"
#include "util/parallel_for.hpp"
#include "util/read_file.hpp"

namespace tailor::recipe {

namespace {

/// The bytes of the file at \a path; empty if it vanished mid-walk. A FIFO, a
/// device or a file over the input size limit is refused by name (exit 2), as
/// every other input is: never read without bound, never waited on.
std::string slurp(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0 && errno == ENOENT) return {};
  auto fail = [&](std::string message, std::string hint = {}) {
    if (fd >= 0) ::close(fd);
    Diagnostic d;
    d.path = path;
    d.message = std::move(message);
    d.hint = std::move(hint);
    throw DiagnosticError(std::move(d));
  };
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0) fail(fmt::format("cannot read the file: {}", std::strerror(errno)));
  if (!S_ISREG(st.st_mode)) fail(fmt::format("cannot read the file: {}, not a regular file", file_kind(st.st_mode)));
  std::string out;
  if (std::optional<std::string> why = read_bounded(fd, static_cast<uint64_t>(st.st_size), out))
    fail(fmt::format("cannot read the file: {}", *why),
         why->find("limit") != std::string::npos ? "raise the limit with --max-input-size BYTES" : "");
  ::close(fd);
  return out;
}

/// Runs \a read(i) for i in [0, n) on the cores; the first read error, in
/// file order, is thrown once all are done (never out of a worker thread).
template <class Read>
void read_all(size_t n, Read&& read) {
  std::vector<std::optional<Diagnostic>> failed(n);
  parallel_for(n, 64, [&](size_t i) {
    try {
      read(i);
    } catch (const DiagnosticError& e) {
      failed[i] = e.diagnostic();
    }
  });
  for (auto& d : failed)
    if (d) throw DiagnosticError(std::move(*d));
}

/// Markdown at the tree's root (README.md, BUILD_MATRIX.md and their kin) or
/// under its docs/ folder (the matrix pages a generator script writes).
bool tree_doc(const std::string& rel) {
  return rel.ends_with(".md") && (rel.find('/') == std::string::npos || rel.starts_with("docs/"));
}

/// A bash script: where a team's generator keeps the facts it writes into headers and docs.
bool script(const std::string& rel) { return rel.ends_with(".sh") || rel.ends_with(".bash"); }

/// Whether check reads \a rel: recipes, docs and scripts.
bool wanted(const std::string& rel) { return rel.ends_with(".nix") || tree_doc(rel) || script(rel); }

/// The path of \a rel under \a root: what a finding names, and what check opens.
/// Appends the files under \a abs (the tree's \a rel directory, "" for the root) to \a out,
/// by readdir's file types: no stat per file. Build results (links named result*) and .git
/// are skipped, and so are links to directories and what cannot be read.
void list_dir(const std::string& abs, const std::string& rel, std::vector<SourceFile>& out) {
  DIR* d = ::opendir(abs.c_str());
  if (!d) return;
  auto type_of = [&](const char* name, int flags) -> unsigned char {
    struct stat st {};
    if (::fstatat(::dirfd(d), name, &st, flags) != 0) return DT_UNKNOWN;
    return S_ISLNK(st.st_mode)    ? DT_LNK
           : S_ISDIR(st.st_mode)  ? DT_DIR
           : S_ISREG(st.st_mode)  ? DT_REG
           : S_ISFIFO(st.st_mode) ? DT_FIFO
           : S_ISCHR(st.st_mode)  ? DT_CHR
           : S_ISBLK(st.st_mode)  ? DT_BLK
           : S_ISSOCK(st.st_mode) ? DT_SOCK
                                  : DT_UNKNOWN;
  };
  std::vector<std::string> subdirs;
  while (const dirent* e = ::readdir(d)) {
    std::string_view name = e->d_name;
    if (name == "." || name == "..") continue;
    unsigned char type = e->d_type == DT_UNKNOWN ? type_of(e->d_name, AT_SYMLINK_NOFOLLOW) : e->d_type;
    if (type == DT_LNK) {  // a link to a file is read; one to a directory is not entered
      if (name.starts_with("result")) continue;
      if ((type = type_of(e->d_name, 0)) == DT_DIR) continue;
    }
    // A FIFO or a device is listed too: reading it, if check wants it, says what it is.
    if (type == DT_DIR && name != ".git")
      subdirs.emplace_back(name);
    else if (type == DT_REG || type == DT_FIFO || type == DT_CHR || type == DT_BLK || type == DT_SOCK)
      out.push_back(SourceFile{rel.empty() ? std::string(name) : rel + "/" + std::string(name), {}});
  }
  ::closedir(d);
  for (const auto& s : subdirs) list_dir(abs + "/" + s, rel.empty() ? s : rel + "/" + s, out);
}

}  // namespace

std::vector<SourceFile> list_tree(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    Diagnostic d;
    d.path = dir.string();
    d.message = "not a directory";
    d.hint = "tailor check DIR: DIR is a recipe tree, e.g. .flox/pkgs or the output of tailor generate";
    throw DiagnosticError(d);
  }
  std::vector<SourceFile> out;
  list_dir(dir.native(), "", out);
  std::sort(out.begin(), out.end(), [](const SourceFile& a, const SourceFile& b) { return a.rel < b.rel; });
  return out;
}

void read_texts(const std::filesystem::path& dir, std::vector<SourceFile>& files) {
  // Reads overlap on the cores (a cold cache waits on the disk).
  read_all(files.size(), [&](size_t i) {
    if (wanted(files[i].rel)) files[i].text = slurp(display_path(dir.native(), files[i].rel));
  });
}

std::vector<SourceFile> read_tree(const std::filesystem::path& dir) {
  std::vector<SourceFile> out = list_tree(dir);
  read_texts(dir, out);
  return out;
}

namespace {

bool is_helper(const std::string& rel, const std::string& stem) {
  return rel.starts_with("lib/") || rel.find("/lib/") != std::string::npos || stem == "default" || stem == "flake" ||
         stem == "shell";
}

/// nixpkgs' names for a package's shared recipe, its builder and an overlay: never a variant.
bool nixpkgs_style(const std::string& stem) { return stem == "generic" || stem == "builder" || stem == "overlay"; }

// The flags of the one ISA a recipe without flags of its own picks by name:
// `(import ./lib/cpu-isa.nix).avx512`, or `isa = "avx512"` to a builder.
std::vector<std::string> flags_of_picked_isa(const RecipeFacts& facts, const KnowledgeBase& kb) {
  std::set<const CpuIsa*> named;
  for (const auto& p : facts.table_picks)
    if (const CpuIsa* i = kb.isa(p.text)) named.insert(i);
  for (const auto& c : facts.calls)
    for (const auto& a : c.args)
      if (const CpuIsa* i = kb.isa(a.text)) named.insert(i);
  return named.size() == 1 ? (*named.begin())->flags : std::vector<std::string>{};
}

// A file name off the strict pattern that still names one variant exactly.
void read_spelled_name(NixFile& n, const KnowledgeBase& kb) {
  std::vector<std::string> flags;
  for (const auto& f : n.facts.cpu_flags) flags.push_back(f.text);
  if (flags.empty()) flags = flags_of_picked_isa(n.facts, kb);
  if (auto s = parse_spelled_name(n.stem, flags, kb)) {
    n.variant = std::move(s->variant);
    n.spelling = std::move(s->spelling);
    n.name_problem.clear();
  }
}

// A name read with the ISA named without a word (a baseline) whose recipe has
// CPU flags or picks an ISA: the flags say which ISA it is, so the spelled reading decides.
bool baseline_with_flags(const NixFile& n, const KnowledgeBase& kb) {
  const CpuIsa* isa = n.variant ? kb.isa(n.variant->isa) : nullptr;
  return isa && isa->baseline() && isa->word.empty() &&
         (!n.facts.cpu_flags.empty() || !flags_of_picked_isa(n.facts, kb).empty());
}

// A variant of an SM set ("…-cuda12_8-all-avx2"): the recipe's targets are the set.
void read_set_name(NixFile& n, const KnowledgeBase& kb) {
  std::vector<std::string> sms;
  for (const auto& f : n.facts.gpu_targets.empty() ? n.facts.cuda_capabilities : n.facts.gpu_targets)
    if (std::find(sms.begin(), sms.end(), f.text) == sms.end()) sms.push_back(f.text);
  if (auto v = parse_set_name(n.stem, sms, kb)) {
    n.variant = std::move(*v);
    n.name_problem.clear();
  }
}

}  // namespace

struct ReleasedText {
  std::string path;
  size_t size = 0;
  size_t hash = 0;
  std::once_flag once;
  std::string text;  ///< read again on first use
};

const std::string& NixFile::text() const {
  if (!released) return src.text;
  ReleasedText& r = *released;
  std::call_once(r.once, [&r] {
    try {
      std::string again = slurp(r.path);
      if (again.size() == r.size && std::hash<std::string_view>{}(again) == r.hash) r.text = std::move(again);
    } catch (const DiagnosticError&) {
      // Gone or changed into something tailor does not read: as changed bytes, no text.
    }
  });
  return r.text;
}

namespace {

/// Gives \a n's text back, to be read again from \a path if needed (NixFile::text).
void release_text(NixFile& n, std::string path) {
  auto r = std::make_shared<ReleasedText>();
  r->path = std::move(path);
  r->size = n.src.text.size();
  r->hash = std::hash<std::string_view>{}(n.src.text);
  n.released = std::move(r);
  std::string().swap(n.src.text);
}

/// Parses \a n and reads its facts, or its syntax error and comments.
void read_nix_file(NixFile& n, const KnowledgeBase& kb, nix::SymbolTable& symbols) {
  if (!n.helper) n.variant = parse_variant_name(n.stem, kb, n.name_problem);
  // A binary file named .nix: "not a text file", never a syntax error that echoes its bytes.
  if (n.src.text.find('\0') != std::string::npos) try {
      require_text(n.display, n.src.text);
    } catch (const DiagnosticError& e) {
      n.syntax_error = e.diagnostic();
      return;
    }
  nix::ParseResult r = nix::parse(n.display, n.src.text, symbols);
  if (r.expr) {
    n.parsed = true;
    n.facts = extract_facts(n.src.text, *r.expr, r.comments, LineIndex(n.src.text, std::move(r.line_starts)));
    if (!n.helper && (!n.variant || baseline_with_flags(n, kb))) read_spelled_name(n, kb);
    if (!n.helper && !n.variant) read_set_name(n, kb);
    return;
  }
  // The facts hold the comments of a parsed file; the lexer's list has those of one that did not parse.
  n.lexed_comments = comment_lines(r.comments, n.src.text, LineIndex(n.src.text, std::move(r.line_starts)));
  n.syntax_error = std::move(r.error);
}

/// Runs read_nix_file on every file, in parallel (files are independent); with
/// \a read_from, each reads its text from there first.
void read_nix_files(std::vector<NixFile>& files, const KnowledgeBase& kb, const std::filesystem::path& read_from) {
  std::vector<std::optional<Diagnostic>> unreadable(files.size());
  // Check never lowers a file or prints it in Nix's order: its tables record no names.
  parallel_for(
      files.size(), 64, [] { return nix::SymbolTable::unrecorded(); },
      [&](nix::SymbolTable& symbols, size_t i) {
        try {
          if (!read_from.empty()) files[i].src.text = slurp(display_path(read_from.native(), files[i].src.rel));
        } catch (const DiagnosticError& e) {
          unreadable[i] = e.diagnostic();  // thrown below: never out of a worker thread
          return;
        }
        read_nix_file(files[i], kb, symbols);
        // Its facts are read: a core holds one text at a time, not the tree's.
        if (!read_from.empty()) release_text(files[i], display_path(read_from.native(), files[i].src.rel));
      });
  for (auto& d : unreadable)
    if (d) throw DiagnosticError(std::move(*d));
}

}  // namespace

namespace {

/// Marks the package recipes in nixpkgs' style (NixFile::package): by their
/// conventional names, and the files other files import or callPackage.
void mark_packages(RecipeTree& t) {
  for (auto& n : t.nix)
    if (!n.helper && !n.variant && nixpkgs_style(n.stem)) n.package = true;
  std::set<const NixFile*> called;
  for (const auto& from : t.nix)
    for (const auto& imp : from.facts.imports)
      if (const NixFile* g = imported_file(t, from, imp.text); g && g != &from) called.insert(g);
  for (auto& n : t.nix)
    if (!n.helper && !n.variant && called.count(&n)) n.package = true;
}

}  // namespace

RecipeTree make_tree(std::string root, std::vector<SourceFile> files, const KnowledgeBase& kb,
                     const std::filesystem::path& read_from) {
  RecipeTree t;
  t.root = std::move(root);
  // Reserved: a NixFile is large, and regrowth would move every one already read.
  t.nix.reserve(static_cast<size_t>(
      std::count_if(files.begin(), files.end(), [](const SourceFile& f) { return f.rel.ends_with(".nix"); })));
  for (auto& f : files) {
    t.files.insert(t.files.end(), f.rel);  // a listed tree is sorted: each goes at the end, no search
    if (tree_doc(f.rel) || script(f.rel)) {
      if (!read_from.empty()) f.text = slurp(display_path(read_from.native(), f.rel));
      (script(f.rel) ? t.scripts : t.docs).push_back(std::move(f));
      continue;
    }
    if (!f.rel.ends_with(".nix")) continue;
    NixFile& n = t.nix.emplace_back();  // in place: a NixFile is too large to build and move
    n.display = display_path(t.root, f.rel);
    size_t slash = f.rel.rfind('/');
    n.stem = f.rel.substr(slash == std::string::npos ? 0 : slash + 1);
    n.stem.resize(n.stem.size() - 4);  // ".nix"
    n.helper = is_helper(f.rel, n.stem);
    n.src = std::move(f);
  }
  auto by_rel = [](const NixFile& a, const NixFile& b) { return a.src.rel < b.src.rel; };
  if (!std::is_sorted(t.nix.begin(), t.nix.end(), by_rel)) std::sort(t.nix.begin(), t.nix.end(), by_rel);
  read_nix_files(t.nix, kb, read_from);
  mark_packages(t);
  return t;
}

namespace {

const NixFile* file_at(const RecipeTree& t, const std::string& rel) {
  auto it = std::lower_bound(t.nix.begin(), t.nix.end(), rel,
                             [](const NixFile& n, const std::string& r) { return n.src.rel < r; });
  return it == t.nix.end() || it->src.rel != rel ? nullptr : &*it;
}

}  // namespace

std::string import_target(const NixFile& from, std::string_view import) {
  // std::filesystem's lexically_normal, by hand on strings: rules ask this for every
  // import of every recipe, and path objects cost more than the rest of the rule.
  std::string joined;
  if (!import.starts_with('/')) joined = from.src.rel.substr(0, from.src.rel.rfind('/') + 1);  // "" at the root
  joined += import;
  const bool absolute = joined.starts_with('/');
  std::vector<std::string_view> parts;
  for (size_t at = 0; at <= joined.size();) {
    size_t slash = std::min(joined.find('/', at), joined.size());
    std::string_view part = std::string_view(joined).substr(at, slash - at);
    at = slash + 1;
    if (part.empty() || part == ".") continue;
    if (part != "..")
      parts.push_back(part);
    else if (!parts.empty() && parts.back() != "..")
      parts.pop_back();
    else if (!absolute)
      parts.push_back(part);  // above the root of a relative path; "/.." is "/"
  }
  std::string target = absolute ? "/" : "";
  for (size_t i = 0; i < parts.size(); ++i) (target += i ? "/" : "") += parts[i];
  if (target.empty() || target == "/") target = "default.nix";
  return target;
}

const NixFile* imported_file(const RecipeTree& t, const NixFile& from, std::string_view import) {
  std::string target = import_target(from, import);
  const NixFile* g = file_at(t, target);
  return g ? g : file_at(t, target + "/default.nix");  // importing a directory imports its default.nix
}

std::vector<const NixFile*> reached_from(const RecipeTree& t, const NixFile& f) {
  std::vector<const NixFile*> out{&f};
  for (size_t i = 0; i < out.size(); ++i)
    for (const auto& imp : out[i]->facts.imports) {
      const NixFile* g = imported_file(t, *out[i], imp.text);
      if (g && std::find(out.begin(), out.end(), g) == out.end()) out.push_back(g);
    }
  return out;
}

}  // namespace tailor::recipe
