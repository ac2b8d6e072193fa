# GPU lookup table: compute capability and marketing names per SM.
{
  "89" = { capability = "8.9"; names = "RTX 4090, L4, L40S"; };
  "90" = { capability = "9.0"; names = "H100, H200, GH200"; };
  "120" = { capability = "12.0"; names = "RTX 5090, RTX PRO 6000"; };
}
