# fetchFromGitHub on NixOS/nixpkgs with an SRI hash
{ fetchFromGitHub }:
fetchFromGitHub {
  owner = "NixOS";
  repo = "nixpkgs";
  rev = "6a030d535719c5190187c4cec156f335e95e3211"; # the pytorch-2.9 pin
  hash = "sha256-9OxFGLdtZjvXEK6ma6tm9n4Iwyp7fZLsLdy5tZ7f+SA=";
}
