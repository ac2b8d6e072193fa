# ONNX Runtime 1.18 — Jetson AGX Orin (SM87)
{ python3Packages, lib, config, cudaPackages, ... }:
python3Packages.onnxruntime.overrideAttrs (oldAttrs: {
  env = (oldAttrs.env or { }) // { NIX_CFLAGS_COMPILE = "-mavx2 -mfma -mf16c"; };
  meta = oldAttrs.meta // { description = "ONNX Runtime, Jetson AGX Orin (SM87)"; };
})
