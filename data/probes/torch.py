# What `tailor verify` asks a PyTorch result (packages.toml: probe = "torch"):
# run with the result's site-packages on PYTHONPATH, it prints one JSON object.
# Keys: python; the module's version as "torch" and its file as "torch_file";
# cuda, cudnn, cpu_sum, config, cuda_available, arch_list, capability, device;
# "error" when the import fails. argv[1] == "gpu": only the tiny GPU
# computation (gpu_sum, gpu_name).
import json, sys
r = {"python": "%d.%d.%d" % tuple(sys.version_info[:3])}
try:
    import torch
    r["torch"] = torch.__version__
    r["torch_file"] = torch.__file__
    if len(sys.argv) > 1 and sys.argv[1] == "gpu":
        y = torch.arange(8, dtype=torch.float32, device="cuda")
        r["gpu_sum"] = float((y * 2).sum().item())
        r["gpu_name"] = torch.cuda.get_device_name(0)
    else:
        r["cuda"] = torch.version.cuda
        try:
            r["cudnn"] = torch.backends.cudnn.version()
        except Exception as e:
            r["cudnn"] = None
        x = torch.arange(6, dtype=torch.float32).reshape(2, 3)
        r["cpu_sum"] = float((x @ x.T).sum().item())
        r["config"] = torch.__config__.show()
        r["cuda_available"] = bool(torch.cuda.is_available())
        r["arch_list"] = torch.cuda.get_arch_list() if r["cuda_available"] else []
        if r["cuda_available"]:
            r["capability"] = list(torch.cuda.get_device_capability(0))
            r["device"] = torch.cuda.get_device_name(0)
except Exception as e:
    r["error"] = "%s: %s" % (type(e).__name__, e)
print(json.dumps(r))
