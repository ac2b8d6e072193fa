#include "lint/rules.hpp"

#include <cstdlib>

namespace tailor::lint {

namespace {

constexpr Rule kRules[] = {
    {"TLR001", "syntax", Severity::error, "the file is not valid Nix"},
    {"TLR002", "name-mismatch", Severity::error, "pname / variantName differs from the file name"},
    {"TLR003", "name-convention", Severity::warning,
     "a recipe file name does not follow the naming convention (pytorch-python313-cuda12_9-sm90-avx512)", true},
    {"TLR004", "pin-multiple", Severity::error,
     "more than one nixpkgs pin in one tree, not explained by a per-CUDA-version grouping"},
    {"TLR005", "pin-no-sha256", Severity::warning, "a nixpkgs tarball fetched without sha256 (impure evaluation)"},
    {"TLR006", "pin-unknown", Severity::warning, "a nixpkgs pin the knowledge base does not know"},
    {"TLR007", "python-set-mismatch", Severity::error,
     "the Python package set disagrees with the name (python3Packages where the name says python313)", true},
    {"TLR008", "python-set-mixed", Severity::warning, "recipes of one tree use different package sets for one Python"},
    {"TLR009", "sm-unsupported", Severity::error, "the SM is not supported by the CUDA toolkit of the overlay", true},
    {"TLR010", "cuda-mismatch", Severity::error, "the cudaPackages overlay disagrees with the CUDA version of the name",
     true},
    {"TLR011", "sm-mismatch", Severity::error, "gpuTargets / cudaCapabilities disagree with the SM of the name", true},
    {"TLR012", "platform-mismatch", Severity::error,
     "meta.platforms / platform disagree with the ISA or GPU of the name (armv9 on x86_64-linux)", true},
    {"TLR013", "isa-flags-extra", Severity::error,
     "CPU flags enable instructions beyond the ISA of the name (SIGILL on the CPUs it promises)", true},
    {"TLR014", "isa-flags-missing", Severity::warning, "CPU flags of the name's ISA are missing", true},
    {"TLR015", "gpu-targets-only", Severity::warning,
     "gpuTargets without config.cudaCapabilities in a recipe that imports nixpkgs: magma and companions build for "
     "every default SM",
     true},
    {"TLR016", "cudnn-not-disabled", Severity::error, "SM below cuDNN's support on this pin without USE_CUDNN=0", true},
    {"TLR017", "avx-disables-missing", Severity::error,
     "an ISA that needs features off (FBGEMM, MKLDNN, NNPACK on AVX) without USE_<F>=0", true},
    {"TLR018", "gpu-product-sm", Severity::error,
     "a description or comment names a GPU product under the wrong SM (L40S under SM90), also the comment beside an "
     "arch-list entry (\"sm_80\" # RTX 30xx)"},
    {"TLR019", "cuda-version-text", Severity::error,
     "a description or comment states a CUDA version other than the overlay's"},
    {"TLR020", "driver-text", Severity::error,
     "a CUDA driver requirement below what the build needs on its GPU: the higher of the CUDA major's "
     "minor-version compatibility floor and the GPU's first driver branch (on a page, the CUDA its title or CUDA "
     "line states, for the GPUs of its sections; in prose that states no CUDA, the GPUs it names, for the oldest "
     "CUDA that builds them)"},
    {"TLR021", "import-missing", Severity::error, "a recipe imports a file that does not exist (torch of a companion)"},
    {"TLR022", "docs-count", Severity::error, "README / BUILD_MATRIX variant counts disagree with the files"},
    {"TLR023", "docs-name-missing", Severity::error, "README / BUILD_MATRIX names a variant that has no recipe"},
    {"TLR024", "docs-name-unlisted", Severity::warning,
     "a recipe is missing from the README / BUILD_MATRIX variant table"},
    {"TLR025", "suppression-unknown", Severity::warning, "a `tailor: ignore` comment names a rule that does not exist"},
    {"TLR026", "gpu-target-invalid", Severity::error,
     "a gpuTargets entry TORCH_CUDA_ARCH_LIST rejects (\"sm_89\", \"90\"): the build stops at CMake; also an arch "
     "list a Markdown guide's code block sets"},
    {"TLR027", "import-unreproducible", Severity::error,
     "an import of an absolute path, a path outside the tree, or <nixpkgs> in a pinned tree: builds differ per "
     "machine"},
    {"TLR028", "fetch-no-hash", Severity::warning,
     "builtins.fetchTarball / fetchGit without a hash: pure evaluation refuses it, and the content can change"},
    {"TLR029", "fetch-no-hash-drv", Severity::error,
     "fetchurl / fetchFromGitHub / fetchzip without a hash: the fixed-output build stops with a hash mismatch"},
    {"TLR030", "name-impossible", Severity::error,
     "a file name promising an SM its toolkit cannot compile, or an aarch64-only GPU with an x86 ISA"},
    {"TLR031", "python-set-default", Severity::warning,
     "python3Packages where the name says python313 and the pin's python3 is 3.13 or not recorded: breaks when the pin "
     "moves",
     true},
    {"TLR032", "package-unknown", Severity::note,
     "recipes of a package the knowledge base does not know: package-specific rules are skipped (once per tree)"},
    {"TLR033", "version-text", Severity::error,
     "a header comment, description or README states a package version other than the one the recipe builds"},
    {"TLR034", "version-disputed", Severity::warning,
     "a header comment, description or README states a version other than the one recorded for the pin, whose sources "
     "disagree on it (settle it with tailor kb probe-pin)"},
    {"TLR035", "table-sm-cuda", Severity::error,
     "a metadata table allows an SM with a CUDA toolkit whose nvcc cannot compile it (reported where the table says "
     "so; on a page, the SM's section under the CUDA its title or CUDA line states)"},
    {"TLR036", "table-gpu-sm", Severity::error, "a metadata table lists a GPU under an SM that is not its own"},
    {"TLR037", "table-arch-name", Severity::warning,
     "a metadata table, or a page's SM heading, names an SM's architecture otherwise than NVIDIA does (a display "
     "label: no build is wrong)"},
    {"TLR038", "table-driver-floor", Severity::error,
     "a metadata table gives a CUDA toolkit a driver floor below what one of the GPUs built with it needs (the "
     "higher of the CUDA major's compatibility floor and the GPU's first driver branch)"},
    {"TLR039", "table-cuda-alias", Severity::warning,
     "a metadata table selects a CUDA package set by an alias (cudaPackages_13) that follows the pin's default"},
    {"TLR040", "builder-argument", Severity::error,
     "a recipe calls a builder with an argument its function does not take: the evaluation stops"},
    {"TLR041", "prune-sm-mismatch", Severity::error,
     "a recipe prunes its GPU code (tailor prune --sm, pruneSms) to other SMs than its name's: the result lacks the "
     "named GPU's code, or keeps code the name does not promise",
     true},
    {"TLR042", "table-unread", Severity::warning,
     "a helper file's values expand to more than check's budget for evaluating tables (128 MiB): its metadata "
     "tables are not checked"},
    {"TLR043", "table-gpu-unknown", Severity::warning,
     "a metadata table lists a GPU the knowledge base knows under no SM (R100 under SM120): its SM is unverified"},
    {"TLR044", "override-argument", Severity::error,
     "a recipe overrides a pinned package with an argument the function of the release its pin ships does not "
     "take: the evaluation stops"},
    {"TLR045", "builder-call-name", Severity::error,
     "a wrapper calls its builder with an argument that contradicts its name (isa = \"avx512\" in …-sm89-avx2.nix: "
     "SIGILL on the CPUs the name promises), where the tree's other wrappers pass the name's word",
     true},
    {"TLR046", "builder-eval", Severity::error,
     "the tree's own builder cannot build a wrapper (nix-instantiate, nixpkgs a stand-in or --nixpkgs): reported where "
     "the builder stops, with the table entry it lacks"},
    {"TLR047", "flake-recipe-version", Severity::warning,
     "a branch's flake.nix fetches a repository at another revision than the tree's recipes: `nix build` and "
     "`flox build` of one branch give two versions"},
};

}  // namespace

std::span<const Rule> rules() { return kRules; }

const Rule* find_rule(std::string_view key) {
  for (const auto& r : kRules)
    if (r.code == key || r.name == key) return &r;
  return nullptr;
}

const Rule& rule(std::string_view code) {
  const Rule* r = find_rule(code);
  if (!r) std::abort();
  return *r;
}

}  // namespace tailor::lint
