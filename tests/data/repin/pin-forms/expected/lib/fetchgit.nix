# builtins.fetchGit: the revision is the pin; no hash to carry
let
  src = builtins.fetchGit {
    url = "https://github.com/NixOS/nixpkgs";
    ref = "nixos-unstable";
    rev = "0182a361324364ae3f436a63005877674cf45efb";
  };
in
(import src { }).python313Packages.torch
