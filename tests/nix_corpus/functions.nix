let
  simple = x: x;
  curried = a: b: c: [ a b c ];
  formals = { a, b ? 2, c ? a + b }: a;
  ellipsis = { a, ... }: a;
  onlyEllipsis = { ... }: 1;
  empty = { }: 1;
  atBefore = args@{ a, b ? 1, ... }: args;
  atAfter = { a, b }@args: args;
  trailingComma = { a, b, }: a;
  nested = { f ? x: x }: f;
  defaults = { lib ? null, stdenv ? lib.stdenv or null }: stdenv;
in
[ simple curried formals ellipsis onlyEllipsis empty atBefore atAfter trailingComma nested defaults ]
