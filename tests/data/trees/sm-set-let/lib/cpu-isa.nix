# CPU ISA flag lookup table (flox/build-vllm: .flox/pkgs/lib/cpu-isa.nix).
{
  avx512 = { name = "avx512"; flags = [ "-mavx512f" "-mavx512dq" "-mavx512vl" "-mavx512bw" "-mfma" ]; };
  avx2 = { name = "avx2"; flags = [ "-mavx2" "-mfma" "-mf16c" ]; };
  armv9 = { name = "armv9"; flags = [ "-march=armv9-a+sve2+bf16+i8mm" ]; };
}
