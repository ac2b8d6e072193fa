# Per CPU target: the compiler flags.
{
  avx512 = {
    flags = [ "-mavx512f" ];
  };
  armv9 = {
    flags = [ "-march=armv9-a" ];
  };
}
