# flashinfer, the attention kernels SGLang calls, from its release wheel
# (flashinfer-python: the kernels are compiled just in time against the torch
# of the Python set, here the custom one). The hash is nixpkgs' lib.fakeHash
# placeholder: the first build prints the real one.
{ buildPythonPackage, fetchPypi, torch }:
buildPythonPackage rec {
  pname = "flashinfer-python";
  version = "0.3.1";
  format = "wheel";
  src = fetchPypi {
    pname = "flashinfer_python";
    inherit version format;
    dist = "py3";
    python = "py3";
    hash = "sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
  };
  dependencies = [ torch ];
  pythonImportsCheck = [ "flashinfer" ];
}
