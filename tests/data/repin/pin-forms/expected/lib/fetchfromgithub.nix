# fetchFromGitHub on NixOS/nixpkgs with an SRI hash
{ fetchFromGitHub }:
fetchFromGitHub {
  owner = "NixOS";
  repo = "nixpkgs";
  rev = "0182a361324364ae3f436a63005877674cf45efb"; # the pytorch-2.9 pin
  hash = "sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
}
