# SGLang itself, from its release wheel (pure Python: its CUDA code is in
# sgl-kernel and flashinfer). The version is written here: no nixpkgs pin
# ships SGLang, so the spec names no [[family.version]]. The hash is nixpkgs' lib.fakeHash placeholder:
# the first build fails and prints the wheel's real hash, to be put here.
{ buildPythonPackage, fetchPypi, torch, sgl-kernel, flashinfer-python, xgrammar }:
buildPythonPackage rec {
  pname = "sglang";
  version = "0.5.2";
  format = "wheel";
  src = fetchPypi {
    inherit pname version format;
    dist = "py3";
    python = "py3";
    hash = "sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
  };
  dependencies = [ torch sgl-kernel flashinfer-python xgrammar ];
  # sglang's other runtime requirements (fastapi, uvicorn, transformers, ...)
  # come from the Python set the same way; list them here as a build needs them.
  pythonImportsCheck = [ "sglang" ];
}
