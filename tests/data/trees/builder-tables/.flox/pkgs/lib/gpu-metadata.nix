# Test fixture (tailor issue 44): an SM table a builder reads, keyed like a
# team's, with planted facts: L40S under "90" (it is 8.9), R100 under "120"
# (no GPU the knowledge base knows), DRIVE Thor under "110" (right: CUDA 13
# renamed sm_101 to sm_110), a display label "Rubin" for "120" (Blackwell).
{
  "61" = {
    label = "Pascal";
    cards = "GTX 1070, 1080, P40";
    toolkits = [ "12_8" ];
  };
  "89" = {
    label = "Ada Lovelace";
    cards = "L40, RTX 4090";
    toolkits = [ "12_8" "13_0" ];
  };
  "90" = {
    label = "Hopper";
    cards = "H100, L40S";
    toolkits = [ "12_8" "13_0" ];
  };
  "110" = {
    label = "DRIVE Thor";
    cards = "DRIVE Thor";
    toolkits = [ "13_0" ];
  };
  "120" = {
    label = "Rubin";
    cards = "R100, RTX 5090";
    toolkits = [ "12_8" "13_0" ];
  };
}
