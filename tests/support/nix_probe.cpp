#include "support/nix_probe.hpp"

#include <filesystem>
#include <fstream>

#include "support/golden.hpp"
#include "util/quote.hpp"

namespace tailor::test {

RunResult probe_recipes(const std::string& pkgs_dir, const std::vector<std::string>& more) {
  std::string cmd = "nix-instantiate --eval --strict --json " + shell_word(source_path("tests/nix/probe.nix")) +
                    " --arg pkgsDir " + shell_word(pkgs_dir);
  for (const auto& word : more) cmd += " " + shell_word(word);
  return run_command(cmd, false);
}

RunResult probe_recipes_on_pin(const std::string& pkgs_dir, const NixpkgsPin& pin, const KnowledgeBase& kb,
                               bool merge_stderr) {
  std::string json = "{";
  for (const auto& [attribute, version] : pin.versions) {
    std::vector<std::string> formals = expected_formals(kb.formals, attribute, version);
    if (formals.empty()) continue;
    json += (json.size() > 1 ? ", \"" : "\"") + attribute + "\": [";
    for (size_t i = 0; i < formals.size(); ++i) json += (i ? ", \"" : "\"") + formals[i] + "\"";
    json += "]";
  }
  json += "}";
  std::string file = (std::filesystem::path(pkgs_dir).parent_path() / "stub-formals.json").string();
  std::ofstream(file) << json;
  std::string cmd = "TAILOR_STUB_FORMALS=" + shell_word(file) + " nix-instantiate --eval --strict --json " +
                    shell_word(source_path("tests/nix/probe.nix")) + " --arg pkgsDir " + shell_word(pkgs_dir);
  return run_command(cmd, merge_stderr);
}

RunResult probe_builder_wrappers(const std::string& pkgs_dir, const std::vector<std::string>& only) {
  std::string cmd = "nix-instantiate --eval --strict --json " + shell_word(source_path("tests/nix/builder-probe.nix")) +
                    " --arg pkgsDir " + shell_word(pkgs_dir);
  if (!only.empty()) {
    std::string list = "[";
    for (const auto& f : only) list += " \"" + f + "\"";  // file names of the tree: no quote or backslash in them
    cmd += " --arg only " + shell_word(list + " ]");
  }
  return run_command(cmd, false);
}

}  // namespace tailor::test
