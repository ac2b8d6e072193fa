// Fuzz target for what adopt learns of a tree's wrappers (import/layout_import.cpp): the
// template per backend, the texts per SM and CPU target, the files kept as their own. Input:
// seven wrapper texts apart by NULs, the files of a fixed spec's seven variants (three CPU
// targets; two SMs by two targets with CUDA). The oracle: where a layout is learnt and nothing
// of the team's is corrected, the spec adopt would write reads back, and generate writes every
// file it does not keep byte for byte as the input gave it.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "generate/layout.hpp"
#include "import/layout_import.hpp"
#include "kb/knowledge_base.hpp"
#include "matrix/spec_loader.hpp"
#include "resource_oracle.hpp"
#include "util/diagnostic.hpp"

namespace {

using namespace tailor;

void check(bool ok) {
  if (!ok) std::abort();
}

const std::string kSpec =
    "[branch]\nname = \"t\"\nproduct = \"build-pytorch\"\npin = \"6a030d5\"\npython = \"3.13\"\n\n"
    "[[family]]\nname = \"torch-cpu\"\npackage = \"pytorch\"\nbackend = \"cpu\"\n"
    "isa = [\"avx2\", \"avx512\", \"armv9\"]\n\n"
    "[[family]]\nname = \"torch-cuda\"\npackage = \"pytorch\"\nbackend = \"cuda\"\ncuda = \"12.9\"\n"
    "sm = [\"8.0\", \"9.0\"]\nisa = [\"avx2\", \"armv9\"]\n";

}  // namespace

TAILOR_FUZZ_TARGET(data, size) {
  static const Spec spec = load_spec("tailor.toml", kSpec, embedded_kb());
  static const Matrix m = expand(spec, embedded_kb());
  const std::string input(reinterpret_cast<const char*>(data), size);
  std::vector<recipe::SourceFile> files;
  size_t at = 0;
  for (const auto& v : m.variants) {
    if (at > input.size()) break;
    size_t nul = input.find('\0', at);
    std::string text = input.substr(at, nul == std::string::npos ? std::string::npos : nul - at);
    files.push_back({".flox/pkgs/" + v.name + ".nix", std::move(text)});
    at = nul == std::string::npos ? input.size() + 1 : nul + 1;
  }
  if (files.size() != m.variants.size()) return 0;  // every variant's wrapper, as a tree adopt takes
  LayoutImport li = import_layout(files, spec, m, embedded_kb(), ".flox/pkgs");
  if (!li.why.empty() || !li.corrected.empty()) return 0;
  // The spec adopt writes must read back: a layout it learnt is one it can keep.
  Spec adopted;
  try {
    adopted = load_spec("tailor.toml", kSpec + layout_toml(spec_layout(li)), embedded_kb());
  } catch (const DiagnosticError&) {
    check(false);
  }
  std::vector<GeneratedFile> out;
  try {
    out = layout_tree(adopted, expand(adopted, embedded_kb()), embedded_kb());
  } catch (const DiagnosticError&) {
    check(false);
  }
  const std::vector<std::string>& keep = adopted.layout->keep;
  for (const auto& f : files) {
    if (std::find(keep.begin(), keep.end(), f.rel) != keep.end()) continue;
    auto g = std::find_if(out.begin(), out.end(), [&](const GeneratedFile& x) { return x.path == f.rel; });
    check(g != out.end() && g->content == f.text);
  }
  return 0;
}
