# PyTorch (prebuilt wheel) for NVIDIA Hopper (H100, H200), trimmed to one GPU
# by tailor after install. Copied from the L40S recipe; only the pname changed.
{ python313Packages, tailor }:
python313Packages.torch-bin.overrideAttrs (old: {
  pname = "pytorch-bin-python313-cuda12_9-sm90";
  postFixup = (old.postFixup or "") + ''
    ${tailor}/bin/tailor prune --in-place --sm 8.9 $out
  '';
})
