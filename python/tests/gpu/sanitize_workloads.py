"""Runs one kernel per workload (bf16, N = 8192, cluster 8) and one with its
rows split over four clusters through the API, the partial and combine
kernels of every sharded workload (uneven shards, masked rows) and
row_scale, for compute-sanitizer (memcheck, racecheck, synccheck) to
watch."""

import torch

import credit
import credit.ops
from credit import suites

from .test_correctness import run_case
from .test_distributed import inputs, run_sharded


def main():
    generator = torch.Generator(device="cuda")
    generator.seed()
    for case in suites.sanitizer_cases():
        forcing = credit.ops.force_tiling(case.tiling) if case.tiling else \
            credit.cluster_size(case.cluster)
        with forcing:
            run_case(case, generator)
        torch.cuda.synchronize()
        print(f"ran {case.id}")
    for case in suites.shard_cases():
        if case.dtype == "f16" and case.m == 6:
            run_sharded(case, *inputs(case, generator))
            torch.cuda.synchronize()
            print(f"ran {case.id}")
    x = torch.randn(5, 8192, device="cuda", dtype=torch.bfloat16)
    credit.ops.scale_rows(x, torch.rand(5, device="cuda"))
    torch.cuda.synchronize()
    print("ran row_scale")


if __name__ == "__main__":
    main()
