# CTranslate2 1.18 for CUDA 12.9 on Python 3.13
{ python313Packages, lib, config, ... }:
python313Packages.ctranslate2.overrideAttrs (oldAttrs: {
  pname = "ctranslate2-cuda12_9";
})
