"""Experiment of 2026-12-04 (#11, #10): where the warps of CREDIT's
kernels wait, per SASS instruction, under Nsight Compute's warp-state
sampling: `split` profiles the kernels our grid's M = 8, N = 1M points run
(bf16, the model's choice) and layernorm's faster tilings there; `long`
the model's choices at our grid's long rows with M >= 64.

    python ncu_stalls.py build OUT          # CPU: compile `split` into OUT
    ncu ... python ncu_stalls.py run SET    # GPU, CREDIT_ARTIFACTS=OUT (or
                                            # a bench library for `long`):
                                            # each kernel once inside NVTX
                                            # range "prof"
"""
import os
import sys

_T = ("#credit.tiling<cluster = 1, threads = {}, vector = 8, elems = {}, "
      "staging = {}, splits = {}>")
# (workload, m, n, tiling or None for the model's choice)
SETS = {
    "split": [(w, 8, 1 << 20, t) for w, t in (
        ("layernorm", None),
        ("layernorm", _T.format(512, 16, "shared", 32)),
        ("layernorm", _T.format(1024, 16, "shared", 16)),
        ("rmsnorm", None),
        ("softmax", None),
        ("l2_normalize", None),
        ("cross_entropy", None),
        ("softmax_logits_bwd", None))],
    "long": [(w, m, n, None)
             for w in ("softmax", "rmsnorm", "cross_entropy", "layernorm")
             for m, n in ((512, 131072), (64, 262144))],
}


def build(out):
    from credit.build import build as build_requests
    from credit.compiler import Request
    from credit.workloads import WORKLOADS
    requests = [Request(w, "bf16", n, 0, WORKLOADS[w].eps, tiling=t)
                for w, _, n, t in SETS["split"]]
    sys.exit(build_requests(requests, out, os.cpu_count() or 2, "bin"))


def run(name):
    import torch
    import credit.ops
    from credit import bench, suites
    for workload, m, n, tiling in SETS[name]:
        fn = bench._credit_fn(workload)
        args = bench._inputs(suites.Point(workload, "bf16", m, n), torch)
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
        print("ran", workload, m, n, tiling or "default", flush=True)


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                    "python"))
    if sys.argv[1] == "build":
        build(sys.argv[2])
    else:
        run(sys.argv[2])
