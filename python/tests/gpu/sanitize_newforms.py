"""Runs the GPU suite's cases of the 2026-12-03 forms, for one workload of
each family: shared staging swept several times by a cluster's small CTAs,
and async staging (cp.async into shared memory; bf16 on a cluster and on a
split row, f32 at an odd N), for compute-sanitizer:
python3 -m tests.gpu.sanitize_newforms from python/, with the suite's
library."""

import torch

import credit.ops
from credit import suites

from .test_correctness import run_case

WORKLOADS = ("softmax", "cross_entropy", "rmsnorm", "layernorm",
             "layernorm_bwd", "softmax_logits_bwd")


def selected(case) -> bool:
    """bf16 cases of both forms, and async staging's odd-N f32 case."""
    if case.workload not in WORKLOADS or not case.tiling:
        return False
    if case.tiling.endswith("staging = shared, splits = 1>"):
        return case.dtype == "bf16"
    if "staging = async" in case.tiling:
        return case.dtype == ("f32" if case.n == 100003 else "bf16")
    return False


def main():
    generator = torch.Generator(device="cuda")
    generator.seed()
    for case in filter(selected, suites.gpu_cases()):
        with credit.ops.force_tiling(case.tiling):
            run_case(case, generator)
        torch.cuda.synchronize()
        print(f"ran {case.id}")


if __name__ == "__main__":
    main()
