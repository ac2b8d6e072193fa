{ "12_8" = "cudaPackages_12_8"; "13_0" = "cudaPackages_13_0"; }
