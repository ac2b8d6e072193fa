let
  s = "x
yz";
in s
