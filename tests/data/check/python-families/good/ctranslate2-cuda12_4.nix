# CTranslate2 1.18 for CUDA 12.4 on Python 3.12
{ python312Packages, lib, config, ... }:
python312Packages.ctranslate2.overrideAttrs (oldAttrs: {
  pname = "ctranslate2-cuda12_4";
})
