# vLLM 0.14.0 for NVIDIA Hopper (SM90: H100, H200) — AVX-512, built from source
# CUDA 12.9 — Requires NVIDIA driver 575.51.03+
let
  nixpkgs_pinned = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/46336d4d6980ae6f136b45c8507b17787eb186a0.tar.gz";
    sha256 = "1f5dyn2k8mnmnb3pkvyx6k2zmgrxsvp3m4a1cy1c0xrp6bv8aiyh";
  }) {
    config = { allowUnfree = true; cudaSupport = true; cudaCapabilities = [ "9.0" ]; };
    overlays = [ (final: prev: { cudaPackages = final.cudaPackages_12_9; }) ];
  };
  flashAttention = builtins.fetchTarball {
    url = "https://github.com/vllm-project/flash-attention/archive/refs/heads/main.tar.gz";
  };
in
nixpkgs_pinned.python312Packages.vllm.overridePythonAttrs (oldAttrs: {
  pname = "vllm-python312-cuda12_9-sm90-avx512";
  version = "0.14.0";
  src = nixpkgs_pinned.fetchFromGitHub {
      owner = "vllm-project";
      repo = "vllm";
      rev = "v0.14.0";
  };
  env = (oldAttrs.env or { }) // { VLLM_FLASH_ATTN_SRC_DIR = "${flashAttention}"; NIX_CFLAGS_COMPILE = "-mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma"; };
})
