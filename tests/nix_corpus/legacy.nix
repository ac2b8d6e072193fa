let {
  x = 1;
  y = x + 1;
  body = { inherit x y; };
}
