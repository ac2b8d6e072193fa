# GPU metadata, one entry per SM. generate-variants.sh keeps the same facts in
# its arrays; mkTorchVision.nix reads this file.
{
  "70" = {
    capability = "7.0";
    archName = "Volta";
    gpus = [ "V100" "Titan V" ];
    isas = [ "avx2" "avx512" ];
    aarch64Isas = [ ];
    cudaVersions = [ "12_8" "12_9" "13_0" "13_1" ];
  };
  "80" = {
    capability = "8.0";
    archName = "Ampere";
    gpus = [ "A100" "A30" ];
    isas = [ "avx2" "avx512" ];
    aarch64Isas = [ ];
    cudaVersions = [ "12_8" "12_9" "13_0" "13_1" ];
  };
  "89" = {
    capability = "8.9";
    archName = "Ada Lovelace";
    gpus = [ "RTX 4090" "L4" "L40" ];
    isas = [ "avx2" "avx512" ];
    aarch64Isas = [ ];
    cudaVersions = [ "12_8" "12_9" "13_0" "13_1" ];
  };
  "90" = {
    capability = "9.0";
    archName = "Hopper";
    gpus = [ "H100" "H200" "GH200" "L40S" ];
    isas = [ "avx2" "avx512" ];
    aarch64Isas = [ "armv9" ];
    cudaVersions = [ "12_8" "12_9" "13_0" "13_1" ];
  };
  "120" = {
    capability = "12.0";
    archName = "Vera Rubin";
    gpus = [ "R100" ];
    isas = [ "avx2" "avx512" ];
    aarch64Isas = [ ];
    cudaVersions = [ "12_8" "12_9" "13_0" "13_1" ];
  };
  "121" = {
    capability = "12.1";
    archName = "Vera Rubin Ultra";
    gpus = [ "DGX Spark" ];
    isas = [ ];
    aarch64Isas = [ "armv9" ];
    cudaVersions = [ "12_9" "13_0" "13_1" ];
  };
}
