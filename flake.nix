# Builds tailor itself with nixpkgs: `nix build`, `nix run .#tailor -- --help`,
# `nix profile install .`. The package is nix/package.nix.
{
  description = "tailor: hardware-tailored PyTorch builds as data";

  inputs.nixpkgs.url = "github:NixOS/nixpkgs/nixos-unstable";

  outputs = { self, nixpkgs }:
    let
      systems = [ "x86_64-linux" "aarch64-linux" "aarch64-darwin" ];
      forEachSystem = f: nixpkgs.lib.genAttrs systems (system: f nixpkgs.legacyPackages.${system});
    in
    {
      packages = forEachSystem (pkgs: rec {
        tailor = pkgs.callPackage ./nix/package.nix { };
        default = tailor;
      });
    };
}
