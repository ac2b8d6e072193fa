#!/usr/bin/env python3
"""Writes the hand-written recipe trees `tailor check` is tested on.

clean/           60 recipes of build-pytorch main (PyTorch 2.8.0, CUDA 12.8) in
                 flox/build-pytorch's hand-written style, done right: one pin with its
                 sha256, python313Packages, config.cudaCapabilities beside
                 gpuTargets, USE_CUDNN=0 below SM 7.5, AVX-only disables.
pytorch-main/   the same tree with the drift flox/build-pytorch's branches show, one
                 mistake per file (see MISTAKES below).
fixable/         one file per mistake `tailor check --fix` repairs (FIXABLE
                 below), and one it must leave alone.

The sha256 values are placeholders of the right shape: these trees are read,
never evaluated. The GPUs and CPU targets are read from data/*.toml (Python
3.11+, tomllib). Run from this directory; review the diff.
"""
import os
import shutil
import tomllib

PIN = "fe5e41d7ffc0421f0913e8472ce6238ed0daf8e3"
SHA = "0p7d6pyr4l4cvdmwvql2rk0dj0c1prdnpcmh3k5fqmnqfsq1c3xs"  # placeholder
KB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "data")


def kb_table(file, key):
    with open(os.path.join(KB, file), "rb") as f:
        return tomllib.load(f)[key]


# The GPUs and CPU targets of the trees; what they are comes from tailor's
# knowledge base (data/*.toml), not from a copy here.
TREE_SMS = ["6.1", "7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0"]
TREE_ISAS = ["avx", "avx2", "avx512", "avx512bf16", "avx512vnni", "armv8_2", "armv9"]
GPUS = {  # SM token: (capability, family, products named in the comments)
    "sm" + g["sm"].replace(".", ""): (g["sm"], g["family"], g["products"][:3])
    for sm in TREE_SMS for g in kb_table("gpu_architectures.toml", "gpu") if g["sm"] == sm
}
ISAS = {  # name: (display, platform, flags, disables)
    i["name"]: (i["display"], i["platform"], i["flags"], i.get("disable", []))
    for name in TREE_ISAS for i in kb_table("cpu_isas.toml", "isa") if i["name"] == name
}
FLAG_NOTES = {"-mavx512f": "AVX-512 Foundation", "-mavx512dq": "Doubleword and Quadword instructions",
              "-mavx512vl": "Vector Length extensions", "-mavx512bw": "Byte and Word instructions",
              "-mfma": "Fused multiply-add", "-mavx2": "AVX2", "-mf16c": "half-precision conversions"}


def names():
    out = []
    for isa in ["avx2", "avx512", "avx512bf16", "avx512vnni", "armv8_2", "armv9"]:
        out.append(("pytorch", None, isa))
    out.append(("pytorch", "darwin", None))
    for sm in GPUS:
        for isa in (["avx", "avx2"] if sm == "sm61" else list(ISAS)):
            out.append(("pytorch", sm, isa))
    out.append(("torchvision", "sm61", "avx"))
    out.append(("torchaudio", "sm61", "avx"))
    return out


def name_of(pkg, sm, isa):
    if sm == "darwin":
        return f"{pkg}-python313-darwin-mps"
    if sm is None:
        return f"{pkg}-python313-cpu-{isa}"
    return f"{pkg}-python313-cuda12_8-{sm}-{isa}"


def pin_block(gpu, caps=True, rev=PIN, sha=SHA):
    sha_line = f'\n    sha256 = "{sha}";' if sha else ""
    config = "config = { allowUnfree = true; };"
    overlays = ""
    if gpu:
        cap = f'\n      cudaCapabilities = [ "{gpu}" ];' if caps else ""
        config = f"config = {{\n      allowUnfree = true;\n      cudaSupport = true;{cap}\n    }};"
        overlays = "\n    overlays = [ (final: prev: { cudaPackages = final.cudaPackages_12_8; }) ];"
    return f'''  nixpkgs_pinned = import (builtins.fetchTarball {{
    url = "https://github.com/NixOS/nixpkgs/archive/{rev}.tar.gz";{sha_line}
  }}) {{
    {config}{overlays}
  }};'''


def flags_block(isa, extra=()):
    lines = []
    for f in ISAS[isa][2] + list(extra):
        note = FLAG_NOTES.get(f)
        lines.append(f'    "{f}"' + (f" # {note}" if note else ""))
    return "  cpuFlags = [\n" + "\n".join(lines) + "\n  ];"


def exports(sm, isa, cudnn=True, avx=True):
    out = []
    if sm == "sm61" and cudnn:
        out.append("    # cuDNN 9.11+ dropped SM < 7.5\n    export USE_CUDNN=0")
    if isa and ISAS[isa][3] and avx:
        out.append("    # FBGEMM, MKLDNN and NNPACK need AVX2\n" + "\n".join(f"    export USE_{d}=0" for d in ISAS[isa][3]))
    return "\n".join(out) + ("\n" if out else "")


def torch_recipe(sm, isa, m):
    name = name_of("pytorch", sm, isa)
    pname = m.get("pname", name)
    disp, platform, _, _ = ISAS[isa] if isa else ("", "aarch64-darwin", [], [])
    platform = m.get("platform", platform)
    if sm == "darwin":
        return f'''# PyTorch 2.8.0 for Apple Silicon — Metal Performance Shaders
# aarch64-darwin, macOS 12.3+; BLAS: Accelerate (vecLib)
{{ }}:
let
{pin_block(None)}
in
nixpkgs_pinned.python313Packages.torch.overrideAttrs (oldAttrs: {{
  pname = "{pname}";
  postInstall = (oldAttrs.postInstall or "") + ''
    echo 1 > $out/.metadata-rev
  '';
  meta = oldAttrs.meta // {{
    description = "PyTorch for Apple Silicon (Metal Performance Shaders)";
    platforms = [ "aarch64-darwin" ];
  }};
}})
'''
    flags = flags_block(isa, m.get("extra_flags", ()))
    rev, sha = m.get("pin", (PIN, SHA))
    if sm is None:
        return f'''# PyTorch 2.8.0 CPU-only — {disp} ({"x86-64" if platform.startswith("x86") else "aarch64"})
# No GPU: CUDA inputs filtered out; BLAS: OpenBLAS
{{ }}:
let
{pin_block(None, rev=rev, sha=sha)}
  # CPU optimization: {disp}
{flags}
in
nixpkgs_pinned.python313Packages.torch.overrideAttrs (oldAttrs: {{
  pname = "{pname}"{"" if m.get("syntax") else ";"}
  buildInputs = nixpkgs_pinned.lib.filter (p: !(nixpkgs_pinned.lib.hasPrefix "cuda" (p.pname or ""))) oldAttrs.buildInputs;
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS ${{nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}}"
    export CFLAGS="$CFLAGS ${{nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}}"
{exports(None, isa)}  '';
  meta = oldAttrs.meta // {{
    description = "PyTorch CPU-only for {disp}";
    platforms = [ "{platform}" ];
  }};
}})
'''
    cap, family, products = GPUS[sm]
    products = m.get("products", products)
    num = sm[2:]
    text = f'''# PyTorch 2.8.0 for NVIDIA {family} ({sm.upper()}: {", ".join(products)}) — {disp}
# CUDA 12.8 — Requires NVIDIA driver 570.26+
{{ }}:
let
{pin_block(cap, caps=m.get("caps", True), rev=rev, sha=sha)}
  # GPU target: {sm.upper()} ({family} - {", ".join(products)})
  gpuArchNum = "{num}"; # For CMAKE_CUDA_ARCHITECTURES
  gpuArchSM = "{m.get("arch", cap)}"; # For TORCH_CUDA_ARCH_LIST
  # CPU optimization: {disp}
{flags}
in
# Two-stage override:
# 1. Enable CUDA and specify GPU targets
(nixpkgs_pinned.python313Packages.torch.override {{
  cudaSupport = true;
  gpuTargets = [ gpuArchSM ];
# 2. Customize build (CPU flags, metadata, etc.)
}}).overrideAttrs (oldAttrs: {{
  pname = "{pname}";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS ${{nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}}"
    export CFLAGS="$CFLAGS ${{nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}}"
{exports(sm, isa, cudnn=m.get("cudnn", True), avx=m.get("avx", True))}    echo "GPU Target: ${{gpuArchSM}} ({family}: {", ".join(products)})"
  '';
  postInstall = (oldAttrs.postInstall or "") + ''
    echo 1 > $out/.metadata-rev
  '';
  meta = oldAttrs.meta // {{
    description = "PyTorch for NVIDIA {"/".join(products[:3])} ({sm.upper()}, {family}) + {disp} [CUDA 12.8]";
    longDescription = ''
      Custom PyTorch build with targeted optimizations:
      - GPU: NVIDIA {family} architecture ({sm.upper()}) - {", ".join(products)}
      - CPU: {disp} instruction set
      - CUDA: 12.8 with compute capability {cap}
      - Python: 3.13
    '';
    platforms = [ "{platform}" ];
  }};
}})
'''
    if "pyset" in m:
        text = text.replace("python313Packages", m["pyset"])
    return text


def companion_recipe(pkg, sm, isa, m):
    name = name_of(pkg, sm, isa)
    torch = m.get("torch", name_of("pytorch", sm, isa))
    cap, family, products = GPUS[sm]
    return f'''# {pkg} for NVIDIA {family} ({sm.upper()}) — AVX, built against {name_of("pytorch", sm, isa)}
# CUDA 12.8 — Requires NVIDIA driver 570.26+
{{ }}:
let
{pin_block(cap)}
  # The matching custom torch: the same derivation, shared through the store.
  torch = import ./{torch}.nix {{ }};
in
(nixpkgs_pinned.python313Packages.{pkg}.override {{ inherit torch; }}).overrideAttrs (oldAttrs: {{
  pname = "{name}";
  meta = oldAttrs.meta // {{
    description = "{pkg} for NVIDIA {"/".join(products)} ({sm.upper()}) + AVX [CUDA 12.8]";
    platforms = [ "x86_64-linux" ];
  }};
}})
'''


def readme(all_names, claimed, extra_rows=(), sm61_glob=None):
    rows = "\n".join(f"| `{n}` |" for n in list(all_names) + list(extra_rows))
    counts = {}
    for n in all_names:
        if n.startswith("pytorch-python313-cuda12_8-"):
            sm = n.split("-")[3]
            counts[sm] = counts.get(sm, 0) + 1
    layout = "\n".join(f"│   ├── pytorch-python313-cuda12_8-{sm}-*.nix  # {sm61_glob if sm == 'sm61' and sm61_glob else c} {sm.upper()} variants"
                       for sm, c in counts.items())
    return f'''# build-pytorch — main

You are on the main branch — PyTorch 2.8.0 + CUDA 12.8 ({claimed} variants)

(Test fixture for `tailor check`: hand-written recipes; sha256 values are placeholders.)

## Layout

```
.flox/pkgs/
{layout}
```

## Variants

| Package |
|---|
{rows}
'''


MISTAKES = {  # pytorch-main: file -> what is wrong with it
    "pytorch-python313-cuda12_8-sm90-avx512": {"products": ["H100", "H200", "L40S"]},  # L40S is SM89
    "pytorch-python313-cuda12_8-sm89-avx512": {"pname": "pytorch-python313-cuda12_8-sm89-avx512-ada"},
    "pytorch-python313-cuda12_8-sm75-avx": {"avx": False},  # FBGEMM/MKLDNN/NNPACK left on
    "pytorch-python313-cuda12_8-sm61-avx2": {"cudnn": False},  # cuDNN 9.11+ has no SM61
    "pytorch-python313-cuda12_8-sm80-avx2": {"caps": False},  # gpuTargets only
    "pytorch-python313-cpu-avx2": {"extra_flags": ["-mavx512f"]},
    "pytorch-python313-cuda12_8-sm120-armv9": {"platform": "x86_64-linux"},
    "pytorch-python313-cuda12_8-sm100-avx512": {"pin": ("46336d4d6980ae6f136b45c8507b17787eb186a0", None)},
    "pytorch-python313-cpu-armv9": {"pin": ("e9f00bd893984bc8ce46c895c3bf7cac95331127", SHA)},
    "pytorch-python313-cpu-armv8_2": {"syntax": True},
    "torchvision-python313-cuda12_8-sm61-avx": {"torch": "pytorch-python313-cuda12_9-sm61-avx"},
    # The seeds' RECIPE_TEMPLATE: TORCH_CUDA_ARCH_LIST does not read "sm_86" (CMake stops).
    "pytorch-python313-cuda12_8-sm86-avx512": {"arch": "sm_86"},
}


def write_tree(root, mistakes, claimed, extra_rows=(), sm61_glob=None):
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    all_names = []
    for pkg, sm, isa in names():
        n = name_of(pkg, sm, isa)
        all_names.append(n)
        m = mistakes.get(n, {})
        text = torch_recipe(sm, isa, m) if pkg == "pytorch" else companion_recipe(pkg, sm, isa, m)
        with open(os.path.join(root, n + ".nix"), "w") as f:
            f.write(text)
    with open(os.path.join(root, "README.md"), "w") as f:
        f.write(readme(all_names, claimed, extra_rows, sm61_glob))


FIXABLE = {  # fixable/: file -> what --fix repairs
    "pytorch-python313-cuda12_8-sm89-avx512": {"pname": "pytorch-python313-cuda12_8-sm89-avx512-ada"},  # TLR002
    "pytorch-python313-cuda12_8-sm75-avx": {"avx": False},  # TLR017
    "pytorch-python313-cuda12_8-sm61-avx2": {"cudnn": False},  # TLR016
    "pytorch-python313-cuda12_8-sm61-avx": {"cudnn": False, "avx": False},  # TLR016 + TLR017 at one place
    "pytorch-python313-cuda12_8-sm90-avx2": {"pyset": "python3Packages"},  # TLR007 (the python3Packages slip of a pin swap)
}

# fixable/: callPackage style, the package set a formal argument (TLR007 in the formals and every use).
FORMALS = '''# PyTorch 2.8.0 for NVIDIA Hopper (SM90: H100, H200) — AVX-512, callPackage style
{ python3Packages, lib, config }:
# tailor: ignore TLR015 (config.cudaCapabilities comes from the caller's nixpkgs)
let
  gpuArchSM = "9.0";
  # python3Packages here must match the name: python313
  cpuFlags = [ "-mavx512f" "-mavx512dq" "-mavx512vl" "-mavx512bw" "-mfma" ];
in
(python3Packages.torch.override {
  cudaSupport = true;
  gpuTargets = [ gpuArchSM ];
}).overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cuda12_8-sm90-avx512";
  nativeBuildInputs = oldAttrs.nativeBuildInputs ++ [ python3Packages.setuptools ];
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS ${lib.concatStringsSep " " cpuFlags}"
  '';
  meta = oldAttrs.meta // {
    description = "PyTorch for NVIDIA H100/H200 (SM90, Hopper) + AVX-512 [CUDA 12.8]";
    platforms = [ "x86_64-linux" ];
  };
})
'''

# fixable/: a file name that is no variant name, whose pname is one: the file is renamed.
RENAME = '''# PyTorch 2.8.0 CPU-only — AVX2 (x86-64), named by hand
{{ }}:
let
{pin}
in
nixpkgs_pinned.python313Packages.torch.overrideAttrs (oldAttrs: {{
  pname = "pytorch-python313-cpu-avx2";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS -mavx2 -mfma -mf16c"
  '';
  meta = oldAttrs.meta // {{ platforms = [ "x86_64-linux" ]; }};
}})
'''

# fixable/: AVX-only disables missing, but preConfigure is a one-line string: no
# line of its own to add them on, so the problem stays reported.
ONE_LINE = '''# PyTorch 2.8.0 CPU-only — AVX (x86-64)
{{ }}:
let
{pin}
in
nixpkgs_pinned.python313Packages.torch.overrideAttrs (oldAttrs: {{
  pname = "pytorch-python313-cpu-avx";
  preConfigure = "export CXXFLAGS=\\"$CXXFLAGS -mavx -mno-fma -mno-bmi -mno-bmi2 -mno-avx2\\"";
  meta = oldAttrs.meta // {{ platforms = [ "x86_64-linux" ]; }};
}})
'''


def write_fixable(root):
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    for n, m in FIXABLE.items():
        pkg, sm, isa = "pytorch", "sm" + n.split("-sm")[1].split("-")[0], n.rsplit("-", 1)[1]
        with open(os.path.join(root, n + ".nix"), "w") as f:
            f.write(torch_recipe(sm, isa, m))
    files = {
        "pytorch-python313-cuda12_8-sm90-avx512.nix": FORMALS,
        "pytorch-cpu-avx2.nix": RENAME.format(pin=pin_block(None)),
        "pytorch-python313-cpu-avx.nix": ONE_LINE.format(pin=pin_block(None)),
    }
    for name, text in files.items():
        with open(os.path.join(root, name), "w") as f:
            f.write(text)


write_tree("clean", {}, 60)
write_tree("pytorch-main", MISTAKES, 62, ["pytorch-python313-cuda12_8-sm70-avx2"], sm61_glob=3)
write_fixable("fixable")
