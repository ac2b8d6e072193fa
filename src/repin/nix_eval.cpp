#include "repin/nix_eval.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "util/find_program.hpp"
#include "util/process.hpp"
#include "util/quote.hpp"

namespace tailor::repin {

ProgramResult run_program(const std::vector<std::string>& argv) {
  ProgramResult r;
  if (argv.empty() || find_program(argv[0]).empty()) return r;
  ProcessSpec spec;
  spec.argv = argv;
  ProcessResult p = system_processes().run(spec);
  r.started = p.started;
  r.status = p.status;
  r.out = std::move(p.out);
  r.err = std::move(p.err);
  return r;
}

TorchEval eval_torch_version(const std::string& nixpkgs, const std::string& python_set, const std::string& attribute,
                             const std::string& cuda) {
  TorchEval t;
  std::string args = "config = { allowUnfree = true; }; ";
  if (!cuda.empty()) {
    std::string set = "cudaPackages_" + cuda;
    for (char& c : set)
      if (c == '.') c = '_';
    args = fmt::format(
        "config = {{ allowUnfree = true; cudaSupport = true; }}; "
        "overlays = [ (final: prev: {{ cudaPackages = final.{}; }}) ]; ",
        set);
  }
  // The path travels as a string argument: no quoting of it inside the expression.
  std::string attr = nix_attr_name(attribute);  // knowledge-base text: bare only when an identifier
  std::string body = fmt::format("(import (/. + nixpkgs) {{ {}}}).{}.{}.version", args, python_set, attr);
  std::string abs = std::filesystem::absolute(nixpkgs).lexically_normal().string();
  if (abs.size() > 1 && abs.back() == '/') abs.pop_back();
  t.expr = fmt::format("(import {} {{ {}}}).{}.{}.version", abs, args, python_set, attr);
  ProgramResult r = run_program(
      {"nix-instantiate", "--eval", "--strict", "--json", "--argstr", "nixpkgs", abs, "-E", "{ nixpkgs }: " + body});
  if (!r.started) {
    t.error = "nix-instantiate is not on PATH";
    return t;
  }
  if (r.status != 0) {
    // Nix prints "error: …" first and a trace after it.
    std::string e = r.err;
    size_t k = e.find("error:");
    if (k != std::string::npos) e = e.substr(k);
    e = e.substr(0, e.find('\n'));
    t.error = e.empty() ? fmt::format("nix-instantiate exited with status {}", r.status) : e;
    return t;
  }
  try {
    auto j = nlohmann::json::parse(r.out);
    if (j.is_string()) {
      t.ok = true;
      t.version = j.get<std::string>();
      return t;
    }
  } catch (const nlohmann::json::exception&) {}
  t.error = "nix-instantiate printed no version string: " + r.out.substr(0, r.out.find('\n'));
  return t;
}

std::optional<std::string> checkout_rev(const std::string& nixpkgs) {
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::path(nixpkgs) / ".git", ec)) return std::nullopt;
  ProgramResult r = run_program({"git", "-C", nixpkgs, "rev-parse", "HEAD"});
  if (!r.started || r.status != 0) return std::nullopt;
  std::string rev = r.out.substr(0, r.out.find('\n'));
  if (rev.size() != 40) return std::nullopt;
  return rev;
}

}  // namespace tailor::repin
