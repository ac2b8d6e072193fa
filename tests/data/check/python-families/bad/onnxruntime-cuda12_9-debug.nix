# ONNX Runtime 1.18 for CUDA 12.9 on Python 3.12
{ python312Packages, lib, config, ... }:
python312Packages.onnxruntime.overrideAttrs (oldAttrs: {
  pname = "onnxruntime-cuda12_9-debug";
})
