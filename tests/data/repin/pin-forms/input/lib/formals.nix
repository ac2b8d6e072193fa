# callPackage style: the package set is a formal argument, used through `with`
{ lib, python3Packages, python3 }:
with python3Packages;
buildPythonPackage {
  pname = "torch-probe";
  version = "0.1";
  propagatedBuildInputs = [ torch python3Packages.numpy ];
  nativeBuildInputs = [ python3.pkgs.setuptools ];
  # python3Packages in a comment and "python3Packages" in a string stay as written
  passthru.note = "built with python3Packages";
}
