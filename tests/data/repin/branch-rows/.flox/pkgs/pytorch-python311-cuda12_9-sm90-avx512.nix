# PyTorch 2.9.1 for Python 3.11 (cuda12_9-sm90-avx512). Test fixture for tailor repin (issue 44).
let
  pkgs = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/46336d4d6980ae6f136b45c8507b17787eb186a0.tar.gz";
  }) { config.allowUnfree = true; };
in
pkgs.python311Packages.torch.overrideAttrs (old: {
  pname = "pytorch-python311-cuda12_9-sm90-avx512";
  meta = old.meta // { description = "PyTorch for Python 3.11"; };
})
