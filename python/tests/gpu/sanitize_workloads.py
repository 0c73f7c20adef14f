"""Runs one kernel per workload (bf16, N = 8192, cluster 8) through the API,
for compute-sanitizer (memcheck, racecheck, synccheck) to watch."""

import torch

import credit
from credit import suites

from .test_correctness import run_case


def main():
    generator = torch.Generator(device="cuda")
    generator.seed()
    for name in credit.WORKLOADS:
        case = suites.Case(name, "bf16", 8192, 8, 5)
        with credit.cluster_size(8):
            run_case(case, generator)
        torch.cuda.synchronize()
        print(f"ran {name}")


if __name__ == "__main__":
    main()
