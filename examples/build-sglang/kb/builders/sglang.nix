# The SGLang builder. nixpkgs does not ship SGLang: this builder adds it and
# its helpers to the Python set, built from their release wheels
# (sglang-wheel.nix, sgl-kernel.nix, flashinfer.nix, xgrammar.nix), and swaps
# in a custom torch, built for the variant's SM (or SM set) and CPU ISA, with
# packageOverrides, so that SGLang, its helpers, torchvision and torchaudio
# all resolve against that one torch (as the vLLM builder does).
{ nixpkgsSrc ? null, variant }:
let
  common = import ./common.nix { inherit nixpkgsSrc variant; };
  v = common.v;
  pkgs = common.pkgs;
  customTorch = import ./custom-torch.nix {
    inherit common nixpkgsSrc;
    pname = v.customTorchName;
    isResult = false;
  };
  python = pkgs.${v.python}.override {
    self = python;
    packageOverrides = self: super: {
      torch = customTorch super.torch;
      sgl-kernel = self.callPackage ./sgl-kernel.nix { };
      flashinfer-python = self.callPackage ./flashinfer.nix { };
      xgrammar = self.callPackage ./xgrammar.nix { };
      sglang = self.callPackage ./sglang-wheel.nix { };
    };
  };
in
python.pkgs.${v.attribute}.overrideAttrs (old: {
  pname = v.name;
  preConfigure = (old.preConfigure or "") + common.jobs;
  postInstall = (old.postInstall or "") + common.postInstall;
  passthru = (old.passthru or { }) // common.passthru // { torch = python.pkgs.torch; };
  meta = (old.meta or { }) // common.meta;
})
