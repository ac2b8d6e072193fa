# CPU ISA flag lookup table, keyed by the names the recipes pick.
{
  avx512 = { name = "avx512"; flags = [ "-mavx512f" "-mavx512dq" "-mavx512vl" "-mavx512bw" "-mfma" ]; };
  avx2 = { name = "avx2"; flags = [ "-mavx2" "-mfma" "-mf16c" ]; };
  armv8_2 = { name = "armv8_2"; flags = [ "-march=armv8.2-a+fp16+dotprod" ]; };
}
