# callPackage style: the package set is a formal argument, used through `with`
{ lib, python313Packages, python313 }:
with python313Packages;
buildPythonPackage {
  pname = "torch-probe";
  version = "0.1";
  propagatedBuildInputs = [ torch python313Packages.numpy ];
  nativeBuildInputs = [ python313.pkgs.setuptools ];
  # python3Packages in a comment and "python3Packages" in a string stay as written
  passthru.note = "built with python3Packages";
}
