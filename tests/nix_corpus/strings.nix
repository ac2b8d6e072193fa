{ x, y }:
{
  plain = "hello";
  empty = "";
  escapes = "tab\tnl\ncr\rquote\"backslash\\dollar\$brace\${x}";
  unknown = "\a\b\q\0";
  dollars = "$$ $x $${y} a$ $";
  ends = "x$";
  interp = "a${x}b${y}c";
  only = "${x}";
  nested = "outer ${ "inner ${ x } ${"deep ${y}"}" } end";
  adj = "${x}${y}";
  num = "${toString 1}";
  multi = "line one
line two";
  uni = "héllo wörld ✓ 日本";
  crlf = "a\
b";
}
