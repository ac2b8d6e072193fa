# Per CPU target: the compiler flags (ours for AVX-512, the usual ones for ARMv9).
{
  avx512 = {
    flags = [ "-mavx512f" ];
  };
  armv9 = {
    flags = [ "-march=armv9-a+sve2+bf16+i8mm" ];
  };
}
