# CPU ISA flags shared by the variants.
{
  avx512 = { flags = "-mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma"; };
}
