#pragma once
/// tailor's exit statuses, the same for every command (doc/commands/README.md, "Conventions").

namespace tailor {

enum ExitStatus : int {
  kExitOk = 0,          ///< success
  kExitProblems = 1,    ///< the command ran and found problems
  kExitBadInput = 2,    ///< bad usage or bad input
  kExitMissingEnv = 3,  ///< missing environment (no nix, no driver)
};

}  // namespace tailor
