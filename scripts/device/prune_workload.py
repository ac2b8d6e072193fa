#!/usr/bin/env python3
"""The workload `scripts/device/prune_check.sh` runs on the original and on the
pruned torch (CUDA_MODULE_LOADING=EAGER): a fixed set of CUDA calls through
torch, cuBLAS(Lt), cuDNN, cuSOLVER, cuFFT, cuSPARSE, cuRAND, then a sweep over
torch's OpInfo database when it imports. One line per check,
"NAME PASS" or "NAME FAIL <first line of the error>", so two runs diff."""
import os, sys, time, traceback

import torch

dev = "cuda"
checks = []


def check(name):
    def wrap(f):
        checks.append((name, f))
        return f
    return wrap


@check("matmul-fp32")
def _():
    a = torch.randn(512, 512, device=dev)
    assert torch.allclose(a @ a.T, (a.double() @ a.double().T).float(), atol=1e-2)

for dt in ("float16", "bfloat16"):
    @check(f"matmul-{dt}")
    def _(dt=dt):
        a = torch.randn(256, 256, device=dev, dtype=getattr(torch, dt))
        ref = a.float() @ a.float()
        assert (a @ a).float().sub(ref).abs().max() < 2.0


@check("cublaslt-linear-bias-gelu")
def _():
    lin = torch.nn.Linear(256, 512).to(dev, torch.bfloat16)
    y = torch.nn.functional.gelu(lin(torch.randn(64, 256, device=dev, dtype=torch.bfloat16)))
    assert torch.isfinite(y).all()


@check("conv-batchnorm-cudnn")
def _():
    torch.backends.cudnn.enabled = True
    m = torch.nn.Sequential(torch.nn.Conv2d(3, 16, 3), torch.nn.BatchNorm2d(16), torch.nn.ReLU()).to(dev)
    y = m(torch.randn(8, 3, 32, 32, device=dev))
    y.sum().backward()
    assert torch.isfinite(y).all()


@check("sdpa")
def _():
    q = torch.randn(2, 8, 128, 64, device=dev, dtype=torch.float16)
    out = torch.nn.functional.scaled_dot_product_attention(q, q, q, is_causal=True)
    ref = torch.nn.functional.scaled_dot_product_attention(q.float(), q.float(), q.float(), is_causal=True)
    assert (out.float() - ref).abs().max() < 1e-2


@check("transformer-train-step")
def _():
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(128, 4, 256, batch_first=True).to(dev)
    opt = torch.optim.AdamW(layer.parameters(), lr=1e-3)
    x = torch.randn(4, 32, 128, device=dev)
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = layer(x).float().pow(2).mean()
    loss.backward()
    opt.step()
    assert torch.isfinite(loss)


@check("sort-topk-scatter-rng")
def _():
    g = torch.Generator(device=dev).manual_seed(1)
    x = torch.rand(10000, device=dev, generator=g)
    s, _ = x.sort()
    assert (s[1:] >= s[:-1]).all()
    assert x.topk(5).values.shape == (5,)
    out = torch.zeros(10, device=dev).scatter_add_(0, torch.randint(0, 10, (1000,), device=dev), torch.ones(1000, device=dev))
    assert out.sum().item() == 1000
    torch.randn(1000, device=dev).normal_()


@check("cusolver")
def _():
    a = torch.randn(64, 64, device=dev, dtype=torch.float64)
    spd = a @ a.T + 64 * torch.eye(64, device=dev, dtype=torch.float64)
    torch.linalg.cholesky(spd)
    torch.linalg.eigh(spd)
    torch.linalg.svd(a)
    torch.linalg.qr(a)
    torch.linalg.solve(spd, a)


@check("cufft")
def _():
    x = torch.randn(1024, device=dev)
    assert torch.allclose(torch.fft.ifft(torch.fft.fft(x)).real, x, atol=1e-4)


@check("cusparse")
def _():
    i = torch.tensor([[0, 1, 2], [2, 0, 1]], device=dev)
    sp = torch.sparse_coo_tensor(i, torch.ones(3, device=dev), (3, 3)).to_sparse_csr()
    assert torch.allclose(sp @ torch.eye(3, device=dev), sp.to_dense())


def opinfo_sweep(limit_s):
    try:
        from torch.testing._internal.common_methods_invocations import op_db
    except Exception as e:  # noqa: BLE001
        print(f"opinfo UNAVAILABLE {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
        return
    start = time.time()
    for op in op_db:
        if time.time() - start > limit_s:
            print("opinfo STOPPED time limit")
            return
        if torch.float32 not in op.supported_dtypes("cuda"):
            continue
        try:
            for sample in list(op.sample_inputs(dev, torch.float32))[:2]:
                op(sample.input, *sample.args, **sample.kwargs)
            torch.cuda.synchronize()
            print(f"op:{op.name}.{op.variant_test_name} PASS")
        except Exception as e:  # noqa: BLE001
            msg = str(e).splitlines()[0][:120] if str(e) else type(e).__name__
            print(f"op:{op.name}.{op.variant_test_name} FAIL {msg}")


if __name__ == "__main__":
    print(f"# torch {torch.__version__} cuda {torch.version.cuda} device {torch.cuda.get_device_name()} "
          f"loading={os.environ.get('CUDA_MODULE_LOADING')} torch_dir={os.path.dirname(torch.__file__)}", flush=True)
    only_fixed = "--fixed" in sys.argv
    for name, f in checks:
        try:
            f()
            torch.cuda.synchronize()
            print(f"{name} PASS", flush=True)
        except Exception as e:  # noqa: BLE001
            print(f"{name} FAIL {str(e).splitlines()[0] if str(e) else type(e).__name__}", flush=True)
    with open("/proc/self/maps") as maps:
        libs = sorted({line.split()[-1] for line in maps if "/nvidia/" in line or "libtorch_cuda" in line})
    print("# loaded: " + " ".join(os.path.dirname(l) + "/" + os.path.basename(l) for l in libs[:12]), flush=True)
    if not only_fixed:
        opinfo_sweep(float(os.environ.get("OPINFO_SECONDS", "150")))
