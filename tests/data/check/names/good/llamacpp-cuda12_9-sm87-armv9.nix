# CTranslate2 1.18 — Jetson AGX Orin (SM87)
{ python3Packages, lib, config, cudaPackages, ... }:
python3Packages.ctranslate2.overrideAttrs (oldAttrs: {
  env = (oldAttrs.env or { }) // { NIX_CFLAGS_COMPILE = "-march=armv9-a+sve2"; };
  meta = oldAttrs.meta // { description = "CTranslate2, Jetson AGX Orin (SM87)"; };
})
