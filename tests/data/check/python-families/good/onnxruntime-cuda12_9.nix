# ONNX Runtime 1.18 for CUDA 12.9 on Python 3.13
{ python313Packages, lib, config, ... }:
python313Packages.onnxruntime.overrideAttrs (oldAttrs: {
  pname = "onnxruntime-cuda12_9";
})
