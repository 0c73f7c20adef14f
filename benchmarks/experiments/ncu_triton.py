"""Experiment of 2026-12-03 (issue #10): CREDIT's default kernel beside the
tuned Triton kernel (`triton_resident`, the benchmark's peer) under Nsight
Compute at the three points where CREDIT lost most to it in the latest
runs. Each implementation is warmed up on the benchmark's inputs, then
called once inside the NVTX range "prof". On the GPU machine, from the
repository root, with a bench library holding these requests carried:

    source scripts/device_env.sh LIBRARY
    ncu --nvtx --nvtx-include "prof/" --section SpeedOfLight \
        --section LaunchStats --section Occupancy \
        --metrics smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum \
        python3 benchmarks/experiments/ncu_triton.py > $OUT/ncu.txt
"""
import sys

import torch

sys.path.insert(0, "python")
from credit import bench, suites  # noqa: E402

POINTS = [("cross_entropy", "bf16", 32768, 4096),
          ("layernorm_bwd", "f32", 2048, 4096),
          ("rmsnorm", "bf16", 4096, 6000)]

triton = bench._handwritten_peers()["triton_resident"]
for workload, dtype, m, n in POINTS:
    point = suites.Point(workload, dtype, m, n)
    args = bench._inputs(point, torch)
    for impl, fn in (("credit", bench._credit_fn(workload)),
                     ("triton", triton[workload])):
        try:
            for _ in range(3):
                fn(*args)
            torch.cuda.synchronize()
            torch.cuda.nvtx.range_push("prof")
            fn(*args)
            torch.cuda.nvtx.range_pop()
            torch.cuda.synchronize()
            print("ran", workload, dtype, m, n, impl, flush=True)
        except Exception as e:  # recorded, not fatal
            print("failed", workload, m, n, impl, repr(e)[:200], flush=True)
