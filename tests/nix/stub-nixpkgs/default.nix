# The stand-in nixpkgs tailor ships (data/builder_eval/nixpkgs.nix): the tests
# evaluate against the same one `tailor check` and `generate --check` use.
import ../../../data/builder_eval/nixpkgs.nix
