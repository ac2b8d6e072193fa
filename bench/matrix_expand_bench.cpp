// Benchmark: expand a synthetic spec of more than 10,000 variants and time it,
// next to a named peer measured in the same run: nix-instantiate --eval
// computing the bare cross product of the same names (no fact checks), the
// way a Nix-only recipe generator would list a matrix.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/knowledge_base.hpp"
#include "matrix/expand.hpp"
#include "matrix/spec_loader.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

template <class F>
double median_ms(int runs, F f) {
  std::vector<double> t;
  for (int i = 0; i < runs; ++i) {
    auto t0 = Clock::now();
    f();
    t.push_back(ms_since(t0));
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// ["a", "b"] in TOML, [ "a" "b" ] in Nix.
std::string quoted_list(const std::vector<std::string>& v, const char* sep = ",") {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? std::string(sep) : std::string()) + " \"" + v[i] + "\"";
  return out + " ]";
}
std::string nix_list(const std::vector<std::string>& v) { return quoted_list(v, ""); }

}  // namespace

int main() {
  // Twenty Python versions on one synthetic pin give a matrix far larger than
  // any real branch; the facts (SM windows, Jetson platforms) still apply.
  std::vector<std::string> pythons;
  std::string py_toml;
  for (int minor = 0; minor < 20; ++minor) {
    pythons.push_back(fmt::format("3.{}", minor));
    py_toml += fmt::format("[[python]]\nversion = \"3.{}\"\n", minor);
  }
  std::string pin_toml = fmt::format(
      "[[pin]]\nshort = \"beef000\"\nrev = \"beef000{}\"\ntorch = \"2.9.1\"\npython = {}\ncuda = [\"12.8\", \"12.9\", "
      "\"13.0\", "
      "\"13.1\"]\ntorch_args = [\"cudaSupport\", \"gpuTargets\", \"effectiveMagma\"]\nsource = \"benchmark\"\n",
      std::string(33, '0'), quoted_list(pythons));
  tailor::KnowledgeBase kb =
      tailor::KnowledgeBase::load_texts({{"python_versions.toml", py_toml}, {"nixpkgs_pins.toml", pin_toml}});
  std::vector<std::string> cudas = {"12.8", "12.9", "13.0", "13.1"};
  std::vector<std::string> packages = {"pytorch", "torchvision", "torchaudio"};
  std::string spec_text = fmt::format(
      "[branch]\nname = \"bench\"\nproduct = \"bench\"\npin = \"beef000\"\npython = {}\n\n[[family]]\nname = \"all\"\n"
      "package = {}\nbackend = \"cuda\"\ncuda = {}\nsm = {}\nisa = {}\n",
      quoted_list(pythons), quoted_list(packages), quoted_list(cudas), quoted_list(kb.gpu_names()),
      quoted_list(kb.isa_names()));

  size_t variants = 0, dropped = 0;
  double load_ms = median_ms(5, [&] { tailor::load_spec("bench.toml", spec_text, kb); });
  tailor::Spec spec = tailor::load_spec("bench.toml", spec_text, kb);
  double expand_ms = median_ms(5, [&] {
    tailor::Matrix m = tailor::expand(spec, kb);
    variants = m.variants.size();
    dropped = m.dropped.size();
  });
  size_t cells = packages.size() * pythons.size() * cudas.size() * kb.gpus.size() * kb.isas.size();
  std::printf("synthetic spec: %zu cells -> %zu variants, %zu dropped by the facts\n", cells, variants, dropped);
  std::printf("tailor load_spec:          %8.2f ms (median of 5)\n", load_ms);
  std::printf("tailor expand:             %8.2f ms (median of 5), %.0f ns per cell\n", expand_ms,
              expand_ms * 1e6 / cells);

  // Peer: the same cross product of names in Nix, without any checks.
  std::vector<std::string> sm_tokens, isa_names = kb.isa_names(), py_tokens, cuda_tokens;
  for (const auto& g : kb.gpus) sm_tokens.push_back(g.name_token().substr(2));
  for (const auto& p : pythons) py_tokens.push_back(p.substr(0, 1) + p.substr(2));
  for (const auto& c : cudas) cuda_tokens.push_back(c.substr(0, 2) + "_" + c.substr(3));
  std::string expr = fmt::format(
      "let ps = {}; pys = {}; cs = {}; ss = {}; is = {}; in builtins.length (builtins.concatMap (p: builtins.concatMap "
      "(py: builtins.concatMap (c: builtins.concatMap (s: map (i: \"${{p}}-python${{py}}-cuda${{c}}-sm${{s}}-${{i}}\") "
      "is) "
      "ss) cs) pys) ps)",
      nix_list(packages), nix_list(py_tokens), nix_list(cuda_tokens), nix_list(sm_tokens), nix_list(isa_names));
  std::string path = "/tmp/tailor-bench-matrix.nix";
  std::ofstream(path) << expr << "\n";
  std::string cmd = "nix-instantiate --eval --strict " + path + " >/dev/null 2>&1";
  if (std::system("command -v nix-instantiate >/dev/null 2>&1") != 0) {
    std::printf("peer nix-instantiate: not installed, no ratio\n");
    return 0;
  }
  double nix_ms = median_ms(3, [&] {
    if (std::system(cmd.c_str()) != 0) std::fprintf(stderr, "nix-instantiate failed\n");
  });
  std::printf("peer nix-instantiate --eval (names only, no checks): %8.2f ms (median of 3, includes process start)\n",
              nix_ms);
  std::printf("ratio peer / tailor (load + expand): %.1fx\n", nix_ms / (load_ms + expand_ms));
  std::printf("target: tailor load + expand under 500 ms on the 2-core CI machine: %s\n",
              load_ms + expand_ms < 500 ? "met" : "NOT met");
  return 0;
}
