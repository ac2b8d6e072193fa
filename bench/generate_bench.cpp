// Benchmark: generate every example spec's tree (recipes + docs) in memory,
// and a synthetic spec of more than 10,000 variants, and write them; next to a
// named peer measured in the same run: nix-instantiate --parse reading the
// recipes that were written (merely parsing what tailor generated).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "generate/branch_tree.hpp"
#include "matrix/spec_loader.hpp"
#include "util/embedded.hpp"

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

struct Result {
  size_t variants = 0, files = 0, bytes = 0;
  double generate_ms = 0, write_ms = 0;
};

Result generate_all(const std::vector<tailor::Spec>& specs, const tailor::KnowledgeBase& kb, const std::string& out) {
  Result r;
  auto t0 = Clock::now();
  std::vector<std::vector<tailor::GeneratedFile>> trees;
  for (const auto& spec : specs) {
    tailor::Matrix m = tailor::expand(spec, kb);
    r.variants += m.variants.size();
    trees.push_back(tailor::branch_tree(spec, m, kb));
  }
  r.generate_ms = ms_since(t0);
  t0 = Clock::now();
  for (size_t i = 0; i < trees.size(); ++i) {
    std::string dir = fmt::format("{}/{}", out, i);
    tailor::apply_plan(dir, trees[i], tailor::plan_tree(dir, trees[i]), false, false);
    for (const auto& f : trees[i]) {
      r.files++;
      r.bytes += f.content.size();
    }
  }
  r.write_ms = ms_since(t0);
  return r;
}

double nix_parse_ms(const std::string& dir) {
  if (std::system("command -v nix-instantiate >/dev/null 2>&1") != 0) return -1;
  auto t0 = Clock::now();
  std::string cmd = "find " + dir + " -name '*.nix' -print0 | xargs -0 nix-instantiate --parse >/dev/null 2>&1";
  if (std::system(cmd.c_str()) != 0) std::fprintf(stderr, "nix-instantiate --parse failed\n");
  return ms_since(t0);
}

void report(const char* what, const Result& r, double nix_ms) {
  std::printf("%s: %zu variants, %zu files, %.1f MB\n", what, r.variants, r.files, r.bytes / 1e6);
  std::printf("  tailor expand + derive + emit: %8.1f ms\n", r.generate_ms);
  std::printf("  tailor plan + atomic write:    %8.1f ms (%.0f files/s; bound by file creation on this disk)\n",
              r.write_ms, r.files / (r.write_ms / 1000));
  if (nix_ms >= 0)
    std::printf("  peer nix-instantiate --parse of the written .nix files: %8.1f ms (ratio %.1fx)\n", nix_ms,
                nix_ms / (r.generate_ms + r.write_ms));
}

}  // namespace

int main() {
  tailor::KnowledgeBase kb = tailor::KnowledgeBase::load();
  std::vector<tailor::Spec> examples;
  for (const auto& f : tailor::embedded_files())
    if (f.path.starts_with("examples/"))
      examples.push_back(tailor::load_spec(std::string(f.path), std::string(f.content), kb));
  std::string root = (std::filesystem::temp_directory_path() / "tailor-bench-generate").string();
  std::filesystem::remove_all(root);
  Result all = generate_all(examples, kb, root + "/examples");
  report("all example specs", all, nix_parse_ms(root + "/examples"));
  std::printf("  target: generation under 200 ms: %s (%.0f ms); with writing: %.0f ms\n",
              all.generate_ms < 200 ? "met" : "NOT met", all.generate_ms, all.generate_ms + all.write_ms);

  // Synthetic: every SM x ISA x CUDA x three Pythons x three packages.
  std::string spec_text =
      "[branch]\nname = \"synthetic\"\nproduct = \"bench\"\npin = \"46336d4\"\npython = [\"3.11\", \"3.12\", "
      "\"3.13\"]\n\n"
      "[[family]]\nname = \"all\"\npackage = [\"pytorch\", \"torchvision\", \"torchaudio\"]\nbackend = \"cuda\"\n"
      "cuda = [\"12.8\", \"12.9\"]\nsm = [\"6.1\", \"7.0\", \"7.5\", \"8.0\", \"8.6\", \"8.7\", \"8.9\", \"9.0\", "
      "\"10.0\", "
      "\"10.1\", \"10.3\", \"12.0\", \"12.1\"]\nisa = [\"avx\", \"avx2\", \"avx512\", \"avx512bf16\", \"avx512vnni\", "
      "\"armv8_2\", \"armv9\"]\n\n[[family]]\nname = \"magma\"\npackage = \"magma\"\nbackend = \"cuda\"\ncuda = "
      "[\"12.8\", \"12.9\"]\n"
      "sm = [\"8.0\", \"9.0\", \"10.0\", \"12.0\"]\nisa = [\"avx2\", \"avx512\", \"armv9\"]\n";
  // Scale it up with more Pythons through a knowledge-base overlay.
  std::string py, pin_pythons;
  for (int minor = 0; minor < 24; ++minor) {
    py += fmt::format("[[python]]\nversion = \"3.{}\"\n", minor);
    pin_pythons += fmt::format("{}\"3.{}\"", minor ? ", " : "", minor);
  }
  std::string pin = fmt::format(
      "[[pin]]\nshort = \"46336d4\"\nrev = \"46336d4d6980ae6f136b45c8507b17787eb186a0\"\ntorch = \"2.9.1\"\npython = "
      "[{}]\n"
      "cuda = [\"12.8\", \"12.9\"]\ncudnn = \"9.13.0\"\ntorch_args = [\"cudaSupport\", \"gpuTargets\", "
      "\"effectiveMagma\"]\n"
      "source = \"benchmark\"\n",
      pin_pythons);
  tailor::KnowledgeBase big =
      tailor::KnowledgeBase::load_texts({{"python_versions.toml", py}, {"nixpkgs_pins.toml", pin}});
  std::string pythons;
  for (int minor = 0; minor < 24; ++minor) pythons += fmt::format("{}\"3.{}\"", minor ? ", " : "", minor);
  std::string text = spec_text;
  text.replace(text.find("[\"3.11\", \"3.12\", \"3.13\"]"), std::string("[\"3.11\", \"3.12\", \"3.13\"]").size(),
               "[" + pythons + "]");
  std::vector<tailor::Spec> synthetic = {tailor::load_spec("synthetic.toml", text, big)};
  Result syn = generate_all(synthetic, big, root + "/synthetic");
  report("synthetic spec", syn, nix_parse_ms(root + "/synthetic"));
  std::printf("  target: generation of 10,000+ variants under 2 s: %s (%.0f ms); with writing: %.0f ms\n",
              syn.variants >= 10000 && syn.generate_ms < 2000 ? "met" : "NOT met", syn.generate_ms,
              syn.generate_ms + syn.write_ms);
  std::filesystem::remove_all(root);
  return 0;
}
