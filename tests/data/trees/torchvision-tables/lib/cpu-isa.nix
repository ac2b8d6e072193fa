# CPU instruction sets: compiler flags and the platform each builds for.
{
  avx2 = {
    label = "AVX2";
    flags = [ "-mavx2" "-mfma" "-mf16c" ];
    platform = "x86_64-linux";
  };
  avx512 = {
    label = "AVX-512";
    flags = [ "-mavx512f" "-mavx512dq" "-mavx512vl" "-mavx512bw" "-mfma" ];
    platform = "x86_64-linux";
  };
  armv9 = {
    label = "ARMv9";
    flags = [ "-march=armv9-a+sve2+bf16+i8mm" ];
    platform = "aarch64-linux";
  };
}
