"""Experiment of 2026-12-04 (#11): the same kernels timed with the grid's
input-set count (256 MB over inputs and outputs) and the experiments' (over
inputs only), and after heavy matmuls: is the grid's slower time of long
rows a harness effect?

    CREDIT_ARTIFACTS=LIB python harness_sets.py      # GPU; LIB holds the
                                                     # two bf16 1M defaults
"""
import math
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
import credit  # noqa: E402,F401  (loads the library CREDIT_ARTIFACTS names)
from credit import bench, suites  # noqa: E402
refs = bench._references()
for w in ("cross_entropy", "softmax_logits_bwd"):
    p = suites.Point(w, "bf16", 8, 1 << 20)
    fn = bench._credit_fn(w)
    torch.manual_seed(1)
    args = bench._inputs(p, torch)
    ref = bench._flatten(refs[w](*[a.double() if a.is_floating_point() else a for a in args]))
    nin = sum(t.numel() * t.element_size() for t in args)
    nall = bench._bytes(args, [o if o.dtype == torch.int8 else o.to(args[0].dtype) if o.dim() == 2 else o.float() for o in ref])
    print(w, "error", bench._error(fn(*args), ref))
    for label, nbytes in (("grid", nall), ("exp", nin), ("grid", nall), ("exp", nin)):
        sets = max(1, min(32, math.ceil((256 << 20) / nbytes)))
        arg_sets = [args] + [bench._inputs(p, torch) for _ in range(sets - 1)]
        us = bench.time_graph(torch, fn, arg_sets) * 1e3
        print(f"  {label} sets={sets} {us:.2f} us  {nall / us / 1e3:.0f} GB/s")
        del arg_sets
    # after a heavy eager run (as the grid's peers do before CREDIT)
    x = torch.randn(8192, 8192, device="cuda")
    for _ in range(200):
        x = x @ x.T * 1e-4
    torch.cuda.synchronize()
    sets = max(1, min(32, math.ceil((256 << 20) / nall)))
    arg_sets = [args] + [bench._inputs(p, torch) for _ in range(sets - 1)]
    print(f"  after matmuls sets={sets} {bench.time_graph(torch, fn, arg_sets) * 1e3:.2f} us")
