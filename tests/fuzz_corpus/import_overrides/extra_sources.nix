let
  pkgs = import <nixpkgs> { };
  onnx = pkgs.fetchFromGitHub { owner = "onnx"; repo = "onnx"; rev = "v1.16.1"; hash = "sha256-h+k/ifK+DbNk6L4FL3nziebC2iOYMZIuJFEyiK9SKkM="; };
  flags = [ "-DFETCHCONTENT_SOURCE_DIR_ONNX=${onnx}" ];
in
pkgs.python312Packages.onnxruntime.override {
  onnxruntime = pkgs.onnxruntime.overrideAttrs (old: {
    version = "1.18.1";
    src = pkgs.fetchFromGitHub { owner = "microsoft"; repo = "onnxruntime"; rev = "v1.18.1"; hash = "sha256-gnPvlXc25QTKoD5e+A8puw6MgZFtk1zxyKq8xAgiFlA="; fetchSubmodules = true; };
    cmakeFlags = old.cmakeFlags ++ flags;
  });
}
