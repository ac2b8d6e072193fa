# sgl-kernel, SGLang's CUDA kernels, from its release wheel (one abi3 wheel
# for every CPython 3.10+). The wheel carries kernels for the SMs its release
# builds for; the custom torch of the variant is what targets one SM. The
# hash is nixpkgs' lib.fakeHash placeholder: the first build prints the real one.
{ buildPythonPackage, fetchPypi, autoPatchelfHook, torch }:
buildPythonPackage rec {
  pname = "sgl-kernel";
  version = "0.3.9.post2";
  format = "wheel";
  src = fetchPypi {
    pname = "sgl_kernel";
    inherit version format;
    dist = "cp310";
    python = "cp310";
    abi = "abi3";
    platform = "manylinux2014_x86_64";
    hash = "sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
  };
  nativeBuildInputs = [ autoPatchelfHook ];
  # libcuda comes from the NVIDIA driver at run time, not from the build.
  autoPatchelfIgnoreMissingDeps = [ "libcuda.so.1" ];
  dependencies = [ torch ];
  pythonImportsCheck = [ "sgl_kernel" ];
}
