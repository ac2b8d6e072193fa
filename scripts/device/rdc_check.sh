#!/usr/bin/env bash
# Run on the GPU machine (issue 59 item 4): the installed NVIDIA wheels'
# libnccl.so.2 and libnvshmem_host.so.3 (relocatable device code in
# __nv_relfatbin) pruned for this GPU's SM with compaction, then loaded by
# torch in place of the originals (LD_PRELOAD; dladdr shows which file
# serves the calls: torch maps the original too, by path): a one-process NCCL all_reduce on the GPU with libnccl, a
# load and a CUDA context with libnvshmem_host. The originals run the same
# checks first. Then the same with `prune --reuse-note-header` (both fatbin
# sections cut, the PT_NOTE program header made a PT_LOAD), as pruned and
# after `strip` (nixpkgs' fixup strips every library).
# Report: $OUT/rdc-check.txt; exit 0 when every check passes.
#   TAILOR=path/to/tailor (else device-bin/tailor)   PYTHON=python3
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out_dir=${OUT:-$root/out}
mkdir -p "$out_dir"
report=$out_dir/rdc-check.txt
: >"$report"
say() { echo "$*" | tee -a "$report"; }
tailor=${TAILOR:-$root/device-bin/tailor}
py=${PYTHON:-python3}
site=$("$py" -c 'import torch, os; print(os.path.dirname(os.path.dirname(torch.__file__)))')
sm=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' ')
work=$(mktemp -d /tmp/rdc-check.XXXX)
say "## $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1); SM $sm; torch $("$py" -c 'import torch; print(torch.__version__)')"
cat >"$work/provider.py" <<'PY'
import ctypes, os
class DlInfo(ctypes.Structure):
    _fields_ = [("fname", ctypes.c_char_p), ("fbase", ctypes.c_void_p), ("sname", ctypes.c_char_p), ("saddr", ctypes.c_void_p)]
def provider(symbol):
    # torch also loads the original by its path (its CUDA-library preload), so both files are
    # mapped; what counts is which one the global scope (LD_PRELOAD first) binds calls to.
    addr = ctypes.cast(getattr(ctypes.CDLL(None), symbol), ctypes.c_void_p)
    info = DlInfo()
    ctypes.CDLL("libc.so.6").dladdr(addr, ctypes.byref(info))
    return os.path.realpath(info.fname.decode())
PY
cat >"$work/nccl.py" <<'PY'
import sys, torch, torch.distributed as dist
from provider import provider
dist.init_process_group("nccl", init_method="tcp://127.0.0.1:29517", rank=0, world_size=1)
t = torch.arange(1 << 20, device="cuda", dtype=torch.float32)
dist.all_reduce(t)
torch.cuda.synchronize()
served = provider("ncclAllReduce")
ok = t[12345].item() == 12345.0 and served == sys.argv[1]
print("PASS" if ok else "FAIL", "nccl", torch.cuda.nccl.version(), "all_reduce", t[12345].item(), "served by", served,
      "mapped", sorted({l.split()[-1] for l in open("/proc/self/maps") if "libnccl.so" in l}))
dist.destroy_process_group()
PY
cat >"$work/nvshmem.py" <<'PY'
import ctypes, sys, torch
from provider import provider
lib = ctypes.CDLL(sys.argv[1])
major, minor = ctypes.c_int(), ctypes.c_int()
lib.nvshmem_info_get_version(ctypes.byref(major), ctypes.byref(minor))
x = torch.ones(1 << 20, device="cuda") * 3
torch.cuda.synchronize()
served = provider("nvshmem_info_get_version")
ok = served == sys.argv[1] and x.sum().item() == 3 * (1 << 20)
print("PASS" if ok else "FAIL", "nvshmem", f"{major.value}.{minor.value}", "served by", served,
      "mapped", sorted({l.split()[-1] for l in open("/proc/self/maps") if "libnvshmem_host.so" in l}))
PY
verdict=0
mkdir -p "$work/two"
prune_into() {  # ORIG OUT [OPTION...]: prunes, says sizes and compaction; 1 when it failed
  local orig=$1 o=$2
  shift 2
  "$tailor" prune "$orig" --sm "$sm" -o "$o" --json "$@" >"$o.json" 2>"$o.err" || { say "$(basename "$o"): prune $* failed: $(cat "$o.err")"; return 1; }
  say "$(basename "$o")${*:+ ($*)}: $(stat -c %s "$orig") -> $(stat -c %s "$o") bytes; $("$py" -c 'import json,sys; f=json.load(open(sys.argv[1]))["files"][0]; print(("not compacted: " + f["not_compacted"] if f.get("not_compacted") else "compacted") + ("; note header reused" if f.get("note_header_reused") else ""))' "$o.json")"
}
for rel in nccl/lib/libnccl.so.2 nvshmem/lib/libnvshmem_host.so.3; do
  orig=$site/nvidia/$rel
  name=$(basename "$rel")
  if [[ ! -f "$orig" ]]; then say "$name: not installed here"; verdict=1; continue; fi
  prune_into "$orig" "$work/$name" || { verdict=1; continue; }
  prune_into "$orig" "$work/two/$name" --reuse-note-header || { verdict=1; continue; }
  mkdir -p "$work/stripped"
  strip -o "$work/stripped/$name" "$work/two/$name" 2>>"$report" || { say "$name: strip of the --reuse-note-header output failed"; verdict=1; }
  script=$work/nccl.py; [[ $name == libnvshmem* ]] && script=$work/nvshmem.py
  for lib in "$orig" "$work/$name" "$work/two/$name" "$work/stripped/$name"; do
    [[ -f $lib ]] || continue
    case $lib in
      "$orig") what=original ;;
      "$work/$name") what=pruned ;;
      "$work/two/$name") what="pruned --reuse-note-header" ;;
      *) what="pruned --reuse-note-header, stripped" ;;
    esac
    line=$(LD_PRELOAD=$lib timeout 300 "$py" "$script" "$(readlink -f "$lib")" 2>"$work/err.txt" | tail -1)
    [[ -n "$line" ]] || line="FAIL (no output) $(tail -3 "$work/err.txt" | tr '\n' ' ')"
    say "  $what: $line"
    [[ $line == PASS* ]] || verdict=1
  done
done
"$tailor" inspect "$work" 2>&1 | head -30 | tee -a "$report" >/dev/null
rm -rf "$work"
say "verdict: $verdict"
exit "$verdict"
