# Per SM: what the builder writes into each package's description.
{
  "90" = {
    family = "Hopper";
    names = "H100, L40S";
    aarch64Names = "GH200";
    toolkits = [ "12_8" "13_0" ];
  };
  "120" = {
    family = "Vera Rubin";
    names = "RTX 5090";
    toolkits = [ "13_0" ];
  };
}
