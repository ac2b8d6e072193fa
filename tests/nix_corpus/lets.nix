let
  a = 1;
  b = a + 1;
  inherit (builtins) length;
  c.d = 3;
  c.e = 4;
  f = let inner = 5; in inner;
in
let { body = a + b; unused = c; }
