# Per toolkit: the package set the overlay selects and the oldest driver it runs on.
{
  "12_8" = {
    kit = "cudaPackages_12_8";
    driver = "550";
  };
  "13_0" = {
    kit = "cudaPackages_13";
    driver = "580";
  };
}
