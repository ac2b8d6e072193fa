# The revision bound in a let, interpolated into the url; a one-line fetch without a hash
let
  nixpkgsRev = "0182a361324364ae3f436a63005877674cf45efb"; /* keep in sync with README */
  nixpkgs = import (builtins.fetchTarball { url = "https://github.com/NixOS/nixpkgs/archive/${nixpkgsRev}.tar.gz"; }) { };
in
nixpkgs.python313Packages.torch
