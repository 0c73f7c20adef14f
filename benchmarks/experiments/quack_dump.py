"""Experiment of 2026-12-05 (twenty-eighth session): Quack's softmax kernel
at 64 x 262144 (bf16) called once inside the NVTX range "prof", so that
Nsight Compute can record its SASS for comparison with CREDIT's (the
instructions, not kept in the repository; RESULTS.md says what they show).
On the GPU machine, with Quack installed (scripts/quack_site.sh):

    ncu --nvtx --nvtx-include "prof/" --section SourceCounters -o /tmp/q \
        python3 benchmarks/experiments/quack_dump.py
    ncu --import /tmp/q.ncu-rep --page source --print-source sass --csv

CREDIT's side needs no GPU: nvdisasm -c KERNEL.cubin (README, "SASS
without a GPU").
"""
import sys
import torch
sys.path.insert(0, "python")
from credit import bench

softmax = bench._quack_peers()["softmax"]
x = torch.randn(64, 262144, device="cuda", dtype=torch.bfloat16)
for _ in range(2):
    softmax(x)
torch.cuda.synchronize()
torch.cuda.nvtx.range_push("prof")
softmax(x)
torch.cuda.nvtx.range_pop()
torch.cuda.synchronize()
