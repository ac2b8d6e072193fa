# xgrammar, SGLang's structured-output engine, from its release wheel (one
# per CPython version: the tag follows the Python set's interpreter). The
# hash is nixpkgs' lib.fakeHash placeholder: the first build prints the real one.
{ buildPythonPackage, fetchPypi, python, autoPatchelfHook, torch }:
let
  tag = "cp" + builtins.replaceStrings [ "." ] [ "" ] python.pythonVersion;
in
buildPythonPackage rec {
  pname = "xgrammar";
  version = "0.1.24";
  format = "wheel";
  src = fetchPypi {
    inherit pname version format;
    dist = tag;
    python = tag;
    abi = tag;
    platform = "manylinux_2_17_x86_64.manylinux2014_x86_64";
    hash = "sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
  };
  nativeBuildInputs = [ autoPatchelfHook ];
  dependencies = [ torch ];
  pythonImportsCheck = [ "xgrammar" ];
}
