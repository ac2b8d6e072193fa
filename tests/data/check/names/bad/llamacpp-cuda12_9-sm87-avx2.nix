# CTranslate2 1.18 — Jetson AGX Orin (SM87)
{ python3Packages, lib, config, cudaPackages, ... }:
python3Packages.ctranslate2.overrideAttrs (oldAttrs: {
  env = (oldAttrs.env or { }) // { NIX_CFLAGS_COMPILE = "-mavx2 -mfma -mf16c"; };
  meta = oldAttrs.meta // { description = "CTranslate2, Jetson AGX Orin (SM87)"; };
})
