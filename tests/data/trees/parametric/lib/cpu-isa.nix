# CPU ISA lookup table: compiler flags and the platform each ISA builds for.
{
  avx2 = { flags = [ "-mavx2" "-mfma" "-mf16c" ]; platform = "x86_64-linux"; };
  avx512 = { flags = [ "-mavx512f" "-mavx512dq" "-mavx512vl" "-mavx512bw" "-mfma" ]; platform = "x86_64-linux"; };
  armv9 = { flags = [ "-march=armv9-a+sve2" ]; platform = "aarch64-linux"; };
}
