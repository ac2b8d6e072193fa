#pragma once
/// The check flox/build-pytorch runs after a pin move, as a command: evaluate `python3XXPackages.torch.version`
/// on a local nixpkgs checkout with nix-instantiate (no network, no build).

#include <optional>
#include <string>
#include <vector>

namespace tailor::repin {

/// The output of a program run without a shell.
struct ProgramResult {
  bool started = false;  ///< false: the program is not on PATH
  int status = -1;
  std::string out;
  std::string err;
};

/// Runs \a argv (argv[0] looked up on PATH), capturing stdout and stderr.
ProgramResult run_program(const std::vector<std::string>& argv);

struct TorchEval {
  std::string expr;  ///< the expression evaluated, for the summary
  bool ok = false;
  std::string version;  ///< when ok
  std::string error;    ///< the first error line otherwise
};

/// Evaluates `(import NIXPKGS { config; overlays; }).SET.ATTRIBUTE.version`
/// (\a attribute: "torch"). With a CUDA version ("12.9") it imports with
/// cudaSupport and the cudaPackages_12_9 overlay, as that check does.
TorchEval eval_torch_version(const std::string& nixpkgs, const std::string& python_set, const std::string& attribute,
                             const std::string& cuda);

/// The commit a nixpkgs checkout is at (git rev-parse HEAD), or nullopt if it is not a git checkout.
std::optional<std::string> checkout_rev(const std::string& nixpkgs);

}  // namespace tailor::repin
