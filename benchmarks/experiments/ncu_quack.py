"""Experiment of 2026-12-02: CREDIT's default kernels beside Quack's under
Nsight Compute. Each implementation is warmed up, then called once inside
the NVTX range "prof". On the GPU machine, after scripts/device_quack.sh
installed Quack (GRIDS=" " installs it without timing anything), from the
repository root with artifacts/quackbench carried:

    source scripts/device_env.sh quackbench
    export PYTHONPATH=$PYTHONPATH:/tmp/quack-site:/tmp/quack-site/nvidia_cutlass_dsl/dsl_packages
    ncu --nvtx --nvtx-include "prof/" --section SpeedOfLight \
        --section LaunchStats --section Occupancy --section WarpStateStats \
        --metrics smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum \
        python3 benchmarks/experiments/ncu_quack.py [WORKLOAD:MxN ...] > $OUT/ncu.txt
"""
import sys, torch
sys.path.insert(0, "python")
from credit import ops
from credit.bench import _quack_peers

QUACK = _quack_peers()  # the benchmark's calls of Quack

def cases(m, n):
    x = torch.randn(m, n, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(n, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, device="cuda", dtype=torch.bfloat16)
    t = torch.randint(0, n, (m,), device="cuda")
    return {
        "softmax": ((lambda: ops.softmax(x)), (lambda: QUACK["softmax"](x))),
        "rmsnorm": ((lambda: ops.rms_norm(x, w, 1e-6)),
                    (lambda: QUACK["rmsnorm"](x, w))),
        "layernorm": ((lambda: ops.layer_norm(x, (n,), w, b, 1e-5)),
                      (lambda: QUACK["layernorm"](x, w, b))),
        "cross_entropy": ((lambda: ops.cross_entropy(x, t)),
                          (lambda: QUACK["cross_entropy"](x, t))),
    }

POINTS = [(64, 262144, ["softmax", "rmsnorm"]), (32, 262144, ["softmax"]),
          (8, 1048576, ["softmax", "layernorm", "cross_entropy", "rmsnorm"])]
if len(sys.argv) > 1:  # WORKLOAD:MxN ... (2026-12-04: decode points)
    POINTS = []
    for arg in sys.argv[1:]:
        name, shape = arg.split(":")
        m, n = map(int, shape.split("x"))
        POINTS.append((m, n, [name]))

for (m, n, names) in POINTS:
    c = cases(m, n)
    for name in names:
        for impl, fn in zip(("credit", "quack"), c[name]):
            try:
                for _ in range(3):
                    fn()
                torch.cuda.synchronize()
                torch.cuda.nvtx.range_push("prof")
                fn()
                torch.cuda.nvtx.range_pop()
                torch.cuda.synchronize()
                print("ran", name, impl, m, n, flush=True)
            except Exception as e:
                print("failed", name, impl, m, n, repr(e)[:200], flush=True)
