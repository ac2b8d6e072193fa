# CTranslate2 1.18 — B200 (SM100) on CUDA 12.9
{ python3Packages, lib, config, cudaPackages, ... }:
python3Packages.ctranslate2.overrideAttrs (oldAttrs: {
  env = (oldAttrs.env or { }) // { NIX_CFLAGS_COMPILE = "-mavx2 -mfma -mf16c"; };
  meta = oldAttrs.meta // { description = "CTranslate2, B200 (SM100) on CUDA 12.9"; };
})
