# CUDA toolkits the tree builds with: the nixpkgs package set of each and the
# driver a user needs (printed in the variant headers).
{
  "12_8" = {
    version = "12.8";
    overlay = "cudaPackages_12_8";
    minDriver = "550";
  };
  "12_9" = {
    version = "12.9";
    overlay = "cudaPackages_12_9";
    minDriver = "560";
  };
  "13_0" = {
    version = "13.0";
    overlay = "cudaPackages_13";
    minDriver = "580";
  };
  "13_1" = {
    version = "13.1";
    overlay = "cudaPackages_13_1";
    minDriver = "590";
  };
}
