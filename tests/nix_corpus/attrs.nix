{ lib, x, y }:
rec {
  zeta = 1;
  alpha = zeta;
  "quoted key" = 2;
  "if" = 3;
  "1abc" = 4;
  a-b = 5;
  _under = 6;
  "" = 7;
  "é" = 8;
  nested.deep.value = 9;
  nested.deep.other = 10;
  nested.shallow = 11;
  merged = { p = 1; };
  merged.q = 2;
  ${x} = 12;
  "${y}suffix" = 13;
  "${y}" = 14;
  ${"static"} = 15;
  a.${x}.b = 16;
  inherit lib;
  inherit (lib) version "name";
  inherit (x) or;
  orr = 17;
  sel = x.a.${y}.or;
  sel2 = x."a b".c or null;
  has = x ? a.b;
  has2 = x ? "c" && x ? ${y};
  empty = { };
  emptyRec = rec { };
}
