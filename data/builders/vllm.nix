# The vLLM builder. A custom torch, built for the variant's SM and ISA, is
# swapped into the whole Python package set with packageOverrides, so that
# vLLM, xformers, flashinfer, torchvision, torchaudio and bitsandbytes all
# resolve against that same torch (replacing it in vLLM alone would leave the
# others linked against nixpkgs' torch: ABI conflicts).
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
      # One SM only: CCCL 2.8.2's preprocessor bug breaks bitsandbytes' 19-SM
      # default build, and the binary gets smaller.
      bitsandbytes = super.bitsandbytes.overrideAttrs (old: {
        cmakeFlags = (old.cmakeFlags or [ ]) ++ v.bitsandbytesCmakeFlags;
      });
    };
  };
in
# Keeping the binary caches: the cached vLLM, the cell's pruned torch swapped
# into its whole closure (xformers, flashinfer, torchvision, … included).
if v.cache == "dependencies-replaced" then common.dependenciesReplaced pkgs.${v.pythonPackages}.vllm
else python.pkgs.vllm.overrideAttrs (old: {
  pname = v.name;
  preConfigure = (old.preConfigure or "") + common.jobs;
  requiredSystemFeatures = [ "big-parallel" ];
  postInstall = (old.postInstall or "") + common.postInstall;
  passthru = (old.passthru or { }) // common.passthru // { torch = python.pkgs.torch; };
  meta = (old.meta or { }) // common.meta;
}
// (if common.workarounds.vllmSource or null == null then { } else {
  # A source override: another vLLM release than the pin ships.
  version = common.workarounds.vllmSource.version;
  src = pkgs.fetchFromGitHub {
    inherit (common.workarounds.vllmSource) owner repo rev hash;
    fetchSubmodules = common.workarounds.vllmSource.fetchSubmodules;
  };
}))
