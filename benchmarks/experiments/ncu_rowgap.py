"""Experiment of 2026-12-05 (twenty-eighth session): softmax bf16 rows of
262144 under Nsight Compute, Quack beside CREDIT's fixed tilings, each
launched as Quack launches (a cluster per row: CREDIT_WAVES=0). Up to 35
rows (every cluster resident) the two take the same time; beyond, CREDIT
loses 2-12% per row (`wave-steps-2026-12-05-run1.json`). Each kernel is
warmed up, then called once inside the NVTX range "prof". On the GPU
machine, after Quack is installed (scripts/quack_site.sh), from the
repository root with the library of `wave_steps.py build` carried:

    source scripts/device_env.sh wsteps2
    ncu --nvtx --nvtx-include "prof/" --clock-control none \
        --section SpeedOfLight --section LaunchStats --section Occupancy \
        --section WarpStateStats --section ComputeWorkloadAnalysis \
        --section SchedulerStats --metrics METRICS \
        python3 benchmarks/experiments/ncu_rowgap.py [M ...] > $OUT/ncu.txt

With STEADY=1 each profiled call follows eight calls over four other input
sets (128 MB at 64 rows, more than L2 holds), as in the benchmark's CUDA
graph; run ncu with `--cache-control none` then, so that the call finds
L2 as the benchmark leaves it (the previous call's output dirty in it).
"""
import os, sys
os.environ.setdefault("CREDIT_WAVES", "0")
sys.path.insert(0, "python")
import torch
from credit import bench, ops

N = 262144
TILINGS = [f"#credit.tiling<cluster = 16, threads = 256, vector = 8, {rest}>"
           for rest in ("elems = 16, staging = shared",
                        "elems = 16, staging = async", "elems = 64")]
QUACK = bench._quack_peers()


def forced(tiling):
    def call(x):
        with ops.force_tiling(tiling):
            return ops.softmax(x)
    return call


STEADY = os.environ.get("STEADY") == "1"

for m in [int(a) for a in sys.argv[1:]] or [35, 64]:
    sets = [torch.randn(m, N, device="cuda", dtype=torch.bfloat16)
            for _ in range(5 if STEADY else 1)]
    calls = [("quack", lambda x: QUACK["softmax"](x))]
    calls += [(t[16:-1], forced(t)) for t in TILINGS]
    for name, fn in calls:
        for i in range(8 if STEADY else 3):
            fn(sets[1 + i % 4] if STEADY else sets[0])
        torch.cuda.synchronize()
        torch.cuda.nvtx.range_push("prof")
        fn(sets[0])
        torch.cuda.nvtx.range_pop()
        torch.cuda.synchronize()
        print(f"ran {name} at {m} x {N}", flush=True)
