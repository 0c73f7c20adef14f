"""Runs the GPU suite's cases of shared staging swept several times by a
cluster's small CTAs (one per workload family), for compute-sanitizer:
python3 -m tests.gpu.sanitize_newforms from python/, with the suite's
library."""

import torch

import credit.ops
from credit import suites

from .test_correctness import run_case

WORKLOADS = ("softmax", "cross_entropy", "rmsnorm", "layernorm",
             "layernorm_bwd", "softmax_logits_bwd")


def main():
    generator = torch.Generator(device="cuda")
    generator.seed()
    for case in suites.gpu_cases():
        if (case.workload in WORKLOADS and case.dtype == "bf16" and
                case.tiling and
                case.tiling.endswith("staging = shared, splits = 1>")):
            with credit.ops.force_tiling(case.tiling):
                run_case(case, generator)
            torch.cuda.synchronize()
            print(f"ran {case.id}")


if __name__ == "__main__":
    main()
