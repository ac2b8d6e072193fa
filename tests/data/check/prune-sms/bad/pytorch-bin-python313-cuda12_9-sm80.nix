# PyTorch (prebuilt wheel) for NVIDIA Ampere (A100), trimmed by tailor after
# install; keeps Hopper too "while we migrate".
{ python313Packages, tailor }:
python313Packages.torch-bin.overrideAttrs (old: {
  pname = "pytorch-bin-python313-cuda12_9-sm80";
  postFixup = (old.postFixup or "") + ''
    ${tailor}/bin/tailor prune --in-place --sm=8.0,9.0 "$out"
  '';
})
