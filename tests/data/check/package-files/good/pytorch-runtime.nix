# The runtime libraries the variants load, as one package: no variant of its own.
{ buildEnv, openblas, gfortran }:
buildEnv {
  name = "pytorch-runtime";
  pname = "pytorch-runtime";
  paths = [ openblas gfortran.cc.lib ];
}
