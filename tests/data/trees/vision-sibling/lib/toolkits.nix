{ "13_0" = "cudaPackages_13"; }
