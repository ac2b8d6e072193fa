# builtins.fetchGit: the revision is the pin; no hash to carry
let
  src = builtins.fetchGit {
    url = "https://github.com/NixOS/nixpkgs";
    ref = "nixos-unstable";
    rev = "6a030d535719c5190187c4cec156f335e95e3211";
  };
in
(import src { }).python3Packages.torch
