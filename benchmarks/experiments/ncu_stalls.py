"""Experiment of 2026-12-04 (#11): where the warps of a split-row kernel
wait at M = 8, N = 1M (bf16), per SASS instruction, under Nsight Compute's
warp-state sampling, for the kernels our grid's 8 x 1M points run (the
model's choice) and for layernorm's faster tilings.

    python ncu_stalls.py build OUT     # CPU: compile the kernels into OUT
    ncu ... python ncu_stalls.py run   # GPU, CREDIT_ARTIFACTS=OUT: each
                                       # kernel once inside NVTX range "prof"
"""
import os
import sys

M, N = 8, 1 << 20
_T = ("#credit.tiling<cluster = 1, threads = {}, vector = 8, elems = {}, "
      "staging = {}, splits = {}>")
# (workload, tiling or None for the model's choice)
KERNELS = [
    ("layernorm", None),
    ("layernorm", _T.format(512, 16, "shared", 32)),
    ("layernorm", _T.format(1024, 16, "shared", 16)),
    ("rmsnorm", None),
    ("softmax", None),
    ("l2_normalize", None),
    ("cross_entropy", None),
    ("softmax_logits_bwd", None),
]


def build(out):
    from credit.build import build as build_requests
    from credit.compiler import Request
    from credit.workloads import WORKLOADS
    requests = [Request(w, "bf16", N, 0, WORKLOADS[w].eps, tiling=t)
                for w, t in KERNELS]
    sys.exit(build_requests(requests, out, os.cpu_count() or 2, "bin"))


def run():
    import torch
    import credit.ops
    from credit import bench, suites
    for workload, tiling in KERNELS:
        fn = bench._credit_fn(workload)
        args = bench._inputs(suites.Point(workload, "bf16", M, N), torch)
        context = (credit.ops.force_tiling(tiling) if tiling
                   else credit.ops.force_tiling(None))
        with context:
            for _ in range(3):
                fn(*args)
            torch.cuda.synchronize()
            torch.cuda.nvtx.range_push("prof")
            fn(*args)
            torch.cuda.nvtx.range_pop()
            torch.cuda.synchronize()
        print("ran", workload, tiling or "default", flush=True)


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                    "python"))
    if sys.argv[1] == "build":
        build(sys.argv[2])
    else:
        run()
