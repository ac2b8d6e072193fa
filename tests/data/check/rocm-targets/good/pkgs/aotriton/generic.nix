# The shared recipe the releases call with their version and targets.
{ stdenv, lib, cmake, version, gpuTargets }:
stdenv.mkDerivation {
  pname = "aotriton";
  inherit version;
  nativeBuildInputs = [ cmake ];
  cmakeFlags = [ "-DAOTRITON_TARGET_ARCH=${lib.concatStringsSep ";" gpuTargets}" ];
}
