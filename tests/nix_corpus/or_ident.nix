{ f, s }:
with { or = 0; };
let
  g = f or;
  h = (f or) 1;
  i = f or 2;
  j = s.or;
  k = s.or or 3;
  l = { or = 1; }.or;
  m = [ f or s ];
in
[ g h i j k l m ]
