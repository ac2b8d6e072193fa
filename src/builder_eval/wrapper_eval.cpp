#include "builder_eval/wrapper_eval.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "util/embedded.hpp"
#include "util/find_program.hpp"
#include "util/quote.hpp"
#include "util/temp_files.hpp"

namespace tailor::builder_eval {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kTrace = "trace: tailor-wrapper ";

// The probe and the stand-in nixpkgs, written from the binary into a folder of
// their own for as long as the evaluation runs (nix-instantiate reads files).
class StandInFiles {
 public:
  StandInFiles() {
    std::string tmpl = (fs::temp_directory_path() / "tailor-builder-eval-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw NoNix{"cannot make a temporary folder for the builder's evaluation"};
    dir_ = tmpl;
    guard_.emplace(dir_);
    for (const auto& f : embedded_files()) {
      if (!f.path.starts_with("data/builder_eval/")) continue;
      std::ofstream out(dir_ / fs::path(f.path).filename(), std::ios::binary);
      out << f.content;
    }
  }
  ~StandInFiles() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  StandInFiles(const StandInFiles&) = delete;
  StandInFiles& operator=(const StandInFiles&) = delete;
  fs::path path(std::string_view name) const { return dir_ / name; }
  // \a e naming these files as what they are: the temporary folder's name changes per run.
  void unname(NixError& e) const {
    for (std::string* s : {&e.message, &e.file}) {
      std::string from = dir_.string();
      for (size_t at; (at = s->find(from)) != std::string::npos;) s->replace(at, from.size(), "data/builder_eval");
    }
  }

 private:
  fs::path dir_;
  std::optional<TempFileGuard> guard_;
};

// A Nix path expression for \a p, whatever characters it holds.
std::string nix_path(const fs::path& p) { return "/. + " + nix_string(fs::absolute(p).lexically_normal().string()); }

// The wrapper the evaluation stopped at: the last one it announced.
std::string last_traced(const std::string& err) {
  size_t at = err.rfind(kTrace);
  if (at == std::string::npos) return {};
  size_t end = err.find('\n', at);
  return err.substr(at + kTrace.size(), end == std::string::npos ? std::string::npos : end - at - kTrace.size());
}

// \a e's file relative to \a root, where it lies under it.
void relative_to(NixError& e, const fs::path& root) {
  if (e.file.empty()) return;
  std::error_code ec;
  fs::path rel = fs::weakly_canonical(e.file, ec).lexically_relative(fs::weakly_canonical(root, ec));
  if (!ec && !rel.empty() && rel.begin()->string() != "..") e.file = rel.generic_string();
}

// The string arguments a wrapper passes: `name = "value";`, as written.
std::map<std::string, std::string> string_args(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  std::string t = text.str();
  static const std::regex arg(R"re(([A-Za-z_][A-Za-z0-9_'-]*)\s*=\s*"([^"\\$]*)"\s*;)re");
  std::map<std::string, std::string> out;
  for (auto it = std::sregex_iterator(t.begin(), t.end(), arg); it != std::sregex_iterator(); ++it)
    out[(*it)[1]] = (*it)[2];
  return out;
}

// Of \a pending, those passing the arguments of \a failed whose values make up the
// missing entry (\a f.lacks): moved to f.alike.
void take_alike(WrapperFailure& f, const fs::path& dir, const std::string& failed, std::vector<std::string>& pending) {
  if (!f.lacks) return;
  std::map<std::string, std::string> key;
  for (const auto& [name, value] : string_args(dir / failed))
    if (value.size() >= 2 && f.lacks->attribute.find(value) != std::string::npos) key[name] = value;
  if (key.empty()) return;
  for (const auto& [name, value] : key)
    f.shared += fmt::format("{}{} = \"{}\"", f.shared.empty() ? "" : ", ", name, value);
  std::vector<std::string> rest;
  for (auto& w : pending) {
    auto args = string_args(dir / w);
    bool same = std::all_of(key.begin(), key.end(), [&](const auto& kv) {
      auto a = args.find(kv.first);
      return a != args.end() && a->second == kv.second;
    });
    (same ? f.alike : rest).push_back(std::move(w));
  }
  pending = std::move(rest);
}

}  // namespace

WrapperEval evaluate_wrappers(const fs::path& root, const std::vector<std::string>& wrappers,
                              const EvalOptions& options, Processes& processes) {
  if (find_program("nix-instantiate").empty())
    throw NoNix{"nix-instantiate is not on PATH: the wrappers cannot be evaluated through the tree's builder"};
  WrapperEval out;
  out.wrappers = wrappers.size();
  StandInFiles files;
  // The wrappers by folder, in order: one evaluation per folder.
  std::map<std::string, std::vector<std::string>> by_dir;
  for (const auto& w : wrappers) {
    fs::path p(w);
    by_dir[p.parent_path().generic_string()].push_back(p.filename().string());
  }
  for (auto& entry : by_dir) {  // a named pair: clang 14 cannot capture a structured binding
    const std::string& dir = entry.first;
    std::vector<std::string>& names = entry.second;
    std::sort(names.begin(), names.end());
    std::vector<std::string> pending = names;
    auto prefixed = [&](const std::string& n) { return dir.empty() ? n : dir + "/" + n; };
    while (!pending.empty()) {
      if (out.failures.size() >= options.max_failures) {
        out.not_evaluated += pending.size();
        break;
      }
      std::string list = "[";
      for (const auto& n : pending) list += " " + nix_string(n);
      list += " ]";
      ProcessSpec spec;
      spec.argv = {
          "nix-instantiate",    "--eval", "--strict", "--json", files.path("probe.nix").string(), "--arg", "pkgsDir",
          nix_path(root / dir), "--arg",  "files",    list};
      if (!options.nixpkgs.empty()) {
        spec.argv.insert(spec.argv.end(),
                         {"--arg", "nixpkgs", nix_path(options.nixpkgs), "--arg", "realNixpkgs", "true"});
      } else {
        spec.argv.insert(spec.argv.end(), {"--arg", "nixpkgs", nix_path(files.path("nixpkgs.nix"))});
      }
      ProcessResult r = processes.run(spec);
      if (!r.started) throw NoNix{"nix-instantiate could not be started"};
      if (r.status == 0) {
        static const std::regex null_entry(R"((^|[\[,])null(?=[,\]]))");
        size_t skipped = static_cast<size_t>(
            std::distance(std::sregex_iterator(r.out.begin(), r.out.end(), null_entry), std::sregex_iterator()));
        out.skipped += skipped;
        out.evaluated += pending.size() - std::min(skipped, pending.size());
        break;
      }
      std::string failed = last_traced(r.err);
      auto at = std::find(pending.begin(), pending.end(), failed);
      WrapperFailure f;
      f.error = read_nix_error(r.err);
      files.unname(f.error);
      f.lacks = missing_entry(f.error, root);
      relative_to(f.error, root);
      if (at == pending.end()) {
        // Stopped before any wrapper (the checkout given does not evaluate): no wrapper is to blame.
        out.not_evaluated += pending.size();
        out.failures.push_back(std::move(f));
        break;
      }
      // Those before it evaluated; those after it are evaluated next, but the ones alike.
      out.evaluated += static_cast<size_t>(at - pending.begin());
      f.wrapper = prefixed(failed);
      pending.erase(pending.begin(), at + 1);
      take_alike(f, root / dir, failed, pending);
      for (auto& a : f.alike) a = prefixed(a);
      out.not_evaluated += f.alike.size();
      out.failures.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace tailor::builder_eval
