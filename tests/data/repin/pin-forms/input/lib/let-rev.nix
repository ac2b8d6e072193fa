# The revision bound in a let, interpolated into the url; a one-line fetch without a hash
let
  nixpkgsRev = "6a030d535719c5190187c4cec156f335e95e3211"; /* keep in sync with README */
  nixpkgs = import (builtins.fetchTarball { url = "https://github.com/NixOS/nixpkgs/archive/${nixpkgsRev}.tar.gz"; }) { };
in
nixpkgs.python312Packages.torch
