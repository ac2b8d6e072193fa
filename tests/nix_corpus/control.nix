{ cond, set }:
assert cond;
assert cond -> set ? x;
with set;
with builtins;
if cond then
  if x then 1 else 2
else if y then
  3
else
  let z = 4; in z
