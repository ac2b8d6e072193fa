# tailor built with nixpkgs' stdenv and CMake, against the same libraries the
# Debian build uses (scripts/deps): toml++, CLI11, fmt, nlohmann-json, zlib,
# OpenSSL's libcrypto and libdeflate; GoogleTest for the test suite
# (doCheck = true also needs nix-instantiate, python3 and the npm CI
# validators, so it is off by default). jemalloc is optional and left out.
{ lib, stdenv, cmake, tomlplusplus, cli11, fmt, nlohmann_json, zlib, openssl, libdeflate, gtest, doCheck ? false }:

stdenv.mkDerivation {
  pname = "tailor";
  version = "0.1.0";

  # The repository without build outputs and the npm validators.
  src = lib.cleanSourceWith {
    src = ./..;
    filter = path: type:
      let name = baseNameOf path; in
      !(builtins.elem name [ "build" "out" ".tools" ".cache" "result" ] || lib.hasPrefix "build-" name);
  };

  nativeBuildInputs = [ cmake ];
  buildInputs = [ tomlplusplus cli11 fmt nlohmann_json zlib openssl libdeflate ];
  nativeCheckInputs = [ gtest ];
  inherit doCheck;

  cmakeFlags = [
    "-DTAILOR_BENCH=OFF"
    "-DTAILOR_TESTS=${if doCheck then "ON" else "OFF"}"
    # The store pins the shared libraries the binary runs with, and nixpkgs'
    # openssl has no static archive in its default outputs.
    "-DTAILOR_STATIC_RUNTIME=OFF"
  ];

  meta = {
    description = "Hardware-tailored PyTorch builds as data: spec, matrix, Nix recipes, build, verify";
    mainProgram = "tailor";
    platforms = [ "x86_64-linux" "aarch64-linux" "aarch64-darwin" ];
  };
}
