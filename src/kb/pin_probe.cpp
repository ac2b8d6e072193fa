#include "kb/pin_probe.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "util/diagnostic.hpp"
#include "util/file_error.hpp"
#include "util/quote.hpp"

namespace tailor {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The first "error: …" line Nix or git printed, or the exit status.
std::string first_error(const ProcessResult& r) {
  std::string e = r.err;
  size_t k = e.find("error:");
  if (k == std::string::npos) k = e.find("fatal:");
  if (k != std::string::npos) e = e.substr(k);
  e = e.substr(0, e.find('\n'));
  return e.empty() ? fmt::format("exited with status {}", r.status) : e;
}

ProcessResult run_tool(Processes& procs, const std::string& path, std::vector<std::string> argv, const char* why) {
  ProcessSpec spec;
  spec.argv = std::move(argv);
  ProcessResult r = procs.run(spec);
  if (!r.started)
    throw_file_error(path, fmt::format("{} is not on PATH: probe-pin {}", spec.argv[0], why), "install Nix and git");
  return r;
}

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

// The checkout must be a git work tree of nixpkgs whose HEAD is REV, unmodified.
std::string checked_out_rev(Processes& procs, const std::string& path, const std::string& rev) {
  std::error_code ec;
  if (!fs::is_regular_file(fs::path(path) / "default.nix", ec) || !fs::is_directory(fs::path(path) / ".git", ec))
    throw_file_error(path, "not a nixpkgs checkout: it needs a default.nix and a .git directory",
                     "clone it: git clone https://github.com/NixOS/nixpkgs PATH");
  const char* why = "reads the checkout's revision with it";
  ProcessResult full =
      run_tool(procs, path, {"git", "-C", path, "rev-parse", "--verify", "--quiet", rev + "^{commit}"}, why);
  if (full.status != 0)
    throw_file_error(path, fmt::format("{} is not a commit of this checkout", rev), "git -C PATH fetch origin " + rev);
  ProcessResult head = run_tool(procs, path, {"git", "-C", path, "rev-parse", "HEAD"}, why);
  std::string want = first_line(full.out), at = first_line(head.out);
  if (head.status != 0 || at != want)
    throw_file_error(path, fmt::format("the checkout is at {}, not at {}", at.substr(0, 12), rev),
                     fmt::format("check it out first: git -C {} checkout {}", shell_word(path), want));
  ProcessResult dirty =
      run_tool(procs, path, {"git", "-C", path, "status", "--porcelain", "--untracked-files=no"}, why);
  if (dirty.status != 0 || !dirty.out.empty())
    throw_file_error(
        path, fmt::format("the checkout has changes not committed at {}: they would be measured", want.substr(0, 12)),
        "git -C PATH stash");
  return want;
}

// One evaluation measures everything; tryEval keeps one broken attribute
// (an alias that throws, a package marked broken) from failing the rest.
constexpr const char* kProbeExpr = R"NIX({ nixpkgs, query }:
let
  q = builtins.fromJSON query;
  pkgs = import (/. + nixpkgs) { config = { allowUnfree = true; }; };
  try = e: let r = builtins.tryEval (builtins.deepSeq e e); in if r.success then r.value else null;
  names = builtins.attrNames pkgs;
  matching = re: builtins.filter (n: builtins.match re n != null) names;
  argsOf = p: let o = p.override or null; in
    if o == null then null else builtins.attrNames (o.__functionArgs or (builtins.functionArgs o));
  srcUrl = p: let s = p.src or null; in
    if s == null then null else builtins.head (s.urls or [ (s.url or null) ]);
  probe = set: a: try (let p = set.${a} or null; in
    if p == null then null else { version = p.version or null; args = argsOf p; url = srcUrl p; });
  each = attrs: f: builtins.listToAttrs (map (name: { inherit name; value = f name; }) attrs);
  interpreter = s: builtins.substring 0 (builtins.stringLength s - 8) s;
in {
  python3 = try pkgs.python3.pythonVersion;
  cudaDefault = try pkgs.cudaPackages.cudaVersion;
  system = builtins.currentSystem;
  cudaSets = each (builtins.filter (n: pkgs ? ${n}) [ "cudaPackages" "cudaPackages_12" "cudaPackages_13" ])
    (s: try pkgs.${s}.cudaVersion);
  python = each (matching "python3[0-9]+Packages") (s: {
    version = try pkgs.${interpreter s}.pythonVersion;
    packages = each q.python (probe pkgs.${s});
  });
  cuda = each (matching "cudaPackages_[0-9]+_[0-9]+") (s: {
    version = try pkgs.${s}.cudaVersion;
    cudnn = try pkgs.${s}.cudnn.version;
  });
  top = each q.top (probe pkgs);
})NIX";

json evaluate(Processes& procs, const std::string& path, const KnowledgeBase& kb) {
  json query = {{"python", json::array()}, {"top", json::array()}};
  for (const auto& p : kb.packages) query[p.python() ? "python" : "top"].push_back(p.attribute);
  std::string abs = fs::absolute(path).lexically_normal().string();
  if (abs.size() > 1 && abs.back() == '/') abs.pop_back();
  // The path and the query travel as string arguments: nothing is quoted into the expression.
  ProcessResult r = run_tool(procs, path,
                             {"nix-instantiate", "--eval", "--strict", "--json", "--argstr", "nixpkgs", abs, "--argstr",
                              "query", query.dump(), "-E", kProbeExpr},
                             "evaluates the checkout with it");
  if (r.status != 0) throw_file_error(path, "nix-instantiate cannot evaluate the checkout: " + first_error(r));
  try {
    return json::parse(r.out);
  } catch (const json::exception&) {
    throw_file_error(path, "nix-instantiate printed no JSON: " + first_line(r.out));
  }
}

std::string text_of(const json& j) { return j.is_string() ? j.get<std::string>() : std::string(); }

// j[key] when j is an object that has it; a null otherwise (const json's [] has no such check).
const json& at(const json& j, const std::string& key) {
  static const json none;
  if (!j.is_object()) return none;
  auto it = j.find(key);
  return it == j.end() ? none : *it;
}

// The NAR hash of the revision's files, as fetchTarball computes it over GitHub's
// tarball of REV (git archive's content): .git and untracked files are not in it.
std::string tarball_sha256(Processes& procs, const std::string& path, const std::string& rev) {
  std::string tmpl = (fs::temp_directory_path() / "tailor-probe-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw_file_error(path, "cannot create a temporary directory to unpack the revision");
  struct Cleanup {
    fs::path dir;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } cleanup{tmpl};
  fs::path tar = cleanup.dir / "source.tar", tree = cleanup.dir / "source";
  std::error_code ec;
  fs::create_directory(tree, ec);
  const char* why = "hashes the revision's files with it";
  ProcessResult a = run_tool(procs, path, {"git", "-C", path, "archive", "--format=tar", "-o", tar.string(), rev}, why);
  if (a.status != 0) throw_file_error(path, "git archive failed: " + first_error(a));
  ProcessResult x = run_tool(procs, path, {"tar", "-xf", tar.string(), "-C", tree.string()}, why);
  if (x.status != 0) throw_file_error(path, "tar cannot unpack the revision: " + first_error(x));
  ProcessResult h = run_tool(procs, path, {"nix-hash", "--type", "sha256", "--base32", tree.string()}, why);
  if (h.status != 0) throw_file_error(path, "nix-hash failed: " + first_error(h));
  return first_line(h.out);
}

std::string cuda_of_set(const std::string& set) {  // cudaPackages_12_9 -> 12.9
  std::string v = set.substr(set.find('_') + 1);
  std::replace(v.begin(), v.end(), '_', '.');
  return v;
}

bool by_version(const std::string& a, const std::string& b) {
  auto va = Version::parse(a), vb = Version::parse(b);
  return va && vb ? *va < *vb : a < b;
}

void read_pythons(const json& j, const KnowledgeBase& kb, PinProbe& p) {
  p.pin.python.clear();
  for (const auto& [set, s] : at(j, "python").items()) {
    std::string v = text_of(at(s, "version"));
    if (v.empty()) continue;
    if (kb.python(v))
      p.pin.python.push_back(v);
    else
      p.notes.push_back(fmt::format("{} (Python {}) is not in python_versions.toml: not recorded", set, v));
  }
  std::sort(p.pin.python.begin(), p.pin.python.end(), by_version);
  std::string def = text_of(at(j, "python3"));
  if (!def.empty() && kb.python(def)) {
    p.pin.python_default = def;
    p.measured.push_back("python_default");
  }
  p.measured.push_back("python");
}

void read_cudas(const json& j, const KnowledgeBase& kb, PinProbe& p) {
  p.pin.cuda.clear();
  bool cudnn_measured = false;
  std::string def = text_of(at(j, "cudaDefault"));
  for (const auto& [set, c] : at(j, "cuda").items()) {
    if (at(c, "version").is_null()) continue;
    std::string v = cuda_of_set(set);
    if (!kb.cuda(v)) {
      p.notes.push_back(fmt::format("{} is not in cuda_toolkits.toml: not recorded", set));
      continue;
    }
    p.pin.cuda.push_back(v);
    std::string cudnn = text_of(at(c, "cudnn"));
    if (!cudnn.empty() && (v == def || !p.pin.cudnn)) p.pin.cudnn = Version::parse(cudnn);
    if (!cudnn.empty() && Version::parse(cudnn) && !cudnn_measured) {
      p.measured.push_back("cudnn");
      cudnn_measured = true;
    }
  }
  p.measured.push_back("cuda");
  std::sort(p.pin.cuda.begin(), p.pin.cuda.end(), by_version);
}

// One version per attribute: the default python3's set decides; sets that differ are noted.
void read_packages(const json& j, const KnowledgeBase& kb, PinProbe& p) {
  std::string main_set;
  for (const auto& [set, s] : at(j, "python").items())
    if (text_of(at(s, "version")) == p.pin.python_default) main_set = set;
  for (const auto& pkg : kb.packages) {
    const json& found = pkg.python() ? at(at(at(at(j, "python"), main_set), "packages"), pkg.attribute)
                                     : at(at(j, "top"), pkg.attribute);
    if (at(found, "args").is_array()) {
      p.function_args[pkg.attribute] = at(found, "args").get<std::vector<std::string>>();
      p.measured.push_back(p.pin.arguments_field(pkg.attribute));
    }
    std::string v = text_of(at(found, "version"));
    auto parsed = Version::parse(v);
    if (!pkg.version_in_pins || !parsed) continue;
    p.pin.versions.insert_or_assign(pkg.attribute, *parsed);
    p.measured.push_back("versions." + pkg.attribute);
    if (!pkg.python()) continue;
    for (const auto& [set, s] : at(j, "python").items()) {
      std::string other = text_of(at(at(at(s, "packages"), pkg.attribute), "version"));
      if (!other.empty() && other != v)
        p.notes.push_back(fmt::format("{}.{} is {}, not {} as in {}", set, pkg.attribute, other, v, main_set));
    }
  }
  if (auto it = p.function_args.find(torch_args_attribute()); it != p.function_args.end())
    p.pin.torch_args = it->second;
  // A prebuilt package's release and wheel, on this machine's system: said, not
  // recorded (the wheel of another platform is not measured here).
  for (const auto& pkg : kb.packages) {
    if (pkg.gpu_target != GpuTargetStrategy::pruned_output || !pkg.python()) continue;
    const json& found = at(at(at(at(j, "python"), main_set), "packages"), pkg.attribute);
    std::string url = text_of(at(found, "url")), v = text_of(at(found, "version"));
    if (!url.empty() || !v.empty())
      p.notes.push_back(fmt::format("{}.{} is {} on {}, from {}", main_set, pkg.attribute, v.empty() ? "?" : v,
                                    text_of(at(j, "system")), url.empty() ? "(no URL)" : url));
  }
}

// nixpkgs' unversioned CUDA package sets: the CUDA each is at the revision.
void read_cuda_sets(const json& j, PinProbe& p) {
  std::map<std::string, std::string> sets;
  for (const auto& [set, v] : at(j, "cudaSets").items())
    if (auto parsed = Version::parse(text_of(v))) sets[set] = fmt::format("{}.{}", parsed->major(), parsed->minor());
  if (sets.empty()) return;
  p.pin.cuda_sets = std::move(sets);
  p.measured.push_back("cuda_sets");
}

}  // namespace

PinProbe probe_pin(Processes& procs, const std::string& nixpkgs, const std::string& rev, const KnowledgeBase& kb) {
  std::string full = checked_out_rev(procs, nixpkgs, rev);
  PinProbe p;
  if (const NixpkgsPin* known = kb.pin(full)) {
    p.pin = *known;
    p.known = true;
  }
  p.pin.rev = full;
  p.pin.short_rev = full.substr(0, 7);
  json j = evaluate(procs, nixpkgs, kb);
  read_pythons(j, kb, p);
  read_cudas(j, kb, p);
  read_packages(j, kb, p);
  read_cuda_sets(j, p);
  p.pin.sha256 = tarball_sha256(procs, nixpkgs, full);
  p.measured.push_back("sha256");
  std::sort(p.measured.begin(), p.measured.end());
  p.measured.erase(std::unique(p.measured.begin(), p.measured.end()), p.measured.end());
  return p;
}

namespace {
std::string toml_list(const std::vector<std::string>& v) {
  std::vector<std::string> q;
  for (const auto& s : v) q.push_back(toml_string(s));
  return fmt::format("[{}]", fmt::join(q, ", "));
}
bool has(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// The measured facts, then what the knowledge base said of the others (a dispute
// over a measured fact is settled, so it goes).
std::string evidence_toml(const PinProbe& p) {
  std::string out;
  auto entry = [&](std::string_view kind, const std::vector<std::string>& facts, const std::string& source) {
    if (facts.empty()) return;
    out += fmt::format("\n[[pin.evidence]]\nkind = {}\nfacts = {}\nsource = {}\n", toml_string(kind), toml_list(facts),
                       toml_string(source));
  };
  std::vector<std::string> recorded = p.pin.recorded_facts(), measured;
  for (const auto& [attr, args] : p.function_args)  // the overlay writes these, not the record's own
    if (attr != torch_args_attribute()) recorded.push_back("function_args." + attr);
  for (const auto& f : p.measured)
    if (has(recorded, f)) measured.push_back(f);
  entry("measured", measured,
        fmt::format("tailor kb probe-pin: nix-instantiate --eval on a nixpkgs checkout at {}; sha256: nix-hash of git "
                    "archive {}",
                    p.pin.short_rev, p.pin.short_rev));
  for (const auto& e : p.pin.evidence) {
    std::vector<std::string> left;
    for (const auto& f : e.facts)
      if (!has(p.measured, f.value) && has(recorded, f.value)) left.push_back(f.value);
    if (left.empty()) continue;
    if (e.kind != EvidenceKind::disputed) {
      entry(evidence_kind_name(e.kind), left, e.source);
      continue;
    }
    std::vector<std::string> claims;
    for (const auto& c : e.claims)
      claims.push_back(fmt::format("{{ value = {}, source = {} }}", toml_string(c.value), toml_string(c.source)));
    out += fmt::format("\n[[pin.evidence]]\nkind = \"disputed\"\nfacts = {}\nclaims = [{}]\n", toml_list(left),
                       fmt::join(claims, ", "));
  }
  return out;
}

}  // namespace

std::string probe_overlay(const PinProbe& p) {
  const NixpkgsPin& pin = p.pin;
  std::string out = fmt::format(
      "# nixpkgs {} as measured by `tailor kb probe-pin` on a checkout of it\n"
      "# (nix-instantiate --eval; the sha256 is the NAR hash of `git archive {}`).\n"
      "# Merged field by field with the knowledge base's entry of the same pin.\n\n[[pin]]\n",
      pin.short_rev, pin.short_rev);
  out += fmt::format("short = {}\nrev = {}\nsha256 = {}\n", toml_string(pin.short_rev), toml_string(pin.rev),
                     toml_string(pin.sha256));
  std::vector<std::string> versions;
  for (const auto& [attr, v] : pin.versions)
    versions.push_back(fmt::format("{} = {}", toml_key(attr), toml_string(v.str())));
  out += fmt::format("versions = {{ {} }}\n", fmt::join(versions, ", "));
  out += fmt::format("python = {}\n", toml_list(pin.python));
  if (!pin.python_default.empty()) out += fmt::format("python_default = {}\n", toml_string(pin.python_default));
  out += fmt::format("cuda = {}\n", toml_list(pin.cuda));
  out += "complete = [\"python\", \"cuda\"]\n";
  if (pin.cudnn) out += fmt::format("cudnn = {}\n", toml_string(pin.cudnn->str()));
  if (has(p.measured, "cuda_sets")) {
    std::vector<std::string> sets;
    for (const auto& [set, v] : pin.cuda_sets) sets.push_back(fmt::format("{} = {}", toml_key(set), toml_string(v)));
    out += fmt::format("cuda_sets = {{ {} }}\n", fmt::join(sets, ", "));
  }
  if (!pin.torch_args.empty()) out += fmt::format("torch_args = {}\n", toml_list(pin.torch_args));
  std::vector<std::string> args;
  for (const auto& [attr, a] : p.function_args)
    if (attr != torch_args_attribute()) args.push_back(fmt::format("{} = {}", toml_key(attr), toml_list(a)));
  if (!args.empty()) out += fmt::format("function_args = {{ {} }}\n", fmt::join(args, ", "));
  if (!p.known) out += "source = \"tailor kb probe-pin (nix-instantiate --eval on a nixpkgs checkout)\"\n";
  out += evidence_toml(p);
  return out;
}

}  // namespace tailor
