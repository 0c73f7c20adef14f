"""Runs one kernel per workload (bf16, N = 8192, cluster 8) and one with its
rows split over four clusters through the API, for compute-sanitizer
(memcheck, racecheck, synccheck) to watch."""

import torch

import credit
import credit.ops
from credit import suites

from .test_correctness import run_case


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


if __name__ == "__main__":
    main()
