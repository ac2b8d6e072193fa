# Per SM: its names, and the CPU targets it is built for (null: all of them).
{
  "61" = {
    family = "Pascal";
    names = "GTX 1080";
    allowedISAs = [ "avx" "avx2" ];
  };
  "90" = {
    family = "Hopper";
    names = "H100";
    allowedISAs = null;
  };
}
