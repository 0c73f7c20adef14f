"""Runs the GPU suite's cases of the 2026-12-03 forms, for one workload of
each family: shared staging swept several times by a cluster's small CTAs,
and async staging (cp.async into shared memory; bf16 on a cluster and on a
split row, f32 at an odd N) and shared staging of some row inputs only
(reread_inputs; bf16, and the odd f32 row), for compute-sanitizer:
python3 -m tests.gpu.sanitize_newforms [TEXT] from python/, with the
suite's library (TEXT: only the cases whose tiling contains it)."""

import sys

import torch

import credit.ops
from credit import suites

from .test_correctness import run_case

WORKLOADS = ("softmax", "cross_entropy", "rmsnorm", "layernorm",
             "layernorm_bwd", "softmax_logits_bwd")


def selected(case) -> bool:
    """bf16 cases of the three forms, and the odd-N f32 cases of async
    and partial staging."""
    if case.workload not in WORKLOADS or not case.tiling:
        return False
    if "reread_inputs" in case.tiling:
        return case.dtype == "bf16" or case.n % 2 == 1
    if case.tiling.endswith("staging = shared, splits = 1>"):
        return case.dtype == "bf16"
    if "staging = async" in case.tiling:
        return case.dtype == ("f32" if case.n == 100003 else "bf16")
    return False


def main(argv: list[str]):
    only = argv[0] if argv else ""
    generator = torch.Generator(device="cuda")
    generator.seed()
    for case in filter(selected, suites.gpu_cases()):
        if only not in case.tiling:
            continue
        with credit.ops.force_tiling(case.tiling):
            run_case(case, generator)
        torch.cuda.synchronize()
        print(f"ran {case.id}")


if __name__ == "__main__":
    main(sys.argv[1:])
