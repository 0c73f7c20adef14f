"""Experiment of 2026-12-04 (#11): registers staging of split rows with
addexp stages packed and the exponentials recomputed (packed_registers.diff
on 62e7a06's lib/Analysis/Plan.cpp), against the compiler without it.

    python packed_sweep.py build OUT          # CPU, once per compiler
    CREDIT_ARTIFACTS=OUT python packed_sweep.py time RESULT   # GPU

`build` compiles, per point, the one-sweep registers tilings of split rows
(1, 2 or 4 CTAs per cluster, 2 to 64 clusters, up to 64 elements) and the
default; `time` (mixed_staging.py's) checks each against float64 and times
it, one process per library (the libraries' kernels have the same names).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
import mixed_staging  # noqa: E402

POINTS = [("cross_entropy", "bf16", 8, 1 << 20),
          ("cross_entropy", "bf16", 4, 1 << 20),
          ("cross_entropy", "bf16", 32, 262144),
          ("cross_entropy", "bf16", 64, 262144),
          ("softmax", "bf16", 8, 1 << 20),
          ("log_softmax", "bf16", 8, 1 << 20),
          ("softmax", "bf16", 32, 262144)]


def tilings(n):
    out = []
    for cluster in (1, 2, 4):
        for splits in (2, 4, 8, 16, 32, 64):
            for threads in (256, 512, 1024):
                part = -(-n // (cluster * splits))
                elems = -(-(-(-part // threads)) // 8) * 8
                if elems > 64 or threads * elems * (cluster * splits - 1) >= n:
                    continue
                out.append(f"#credit.tiling<cluster = {cluster}, threads = "
                           f"{threads}, vector = VEC, elems = {elems}, "
                           f"splits = {splits}>")
    return out


if __name__ == "__main__":
    {"build": lambda out: mixed_staging.build(out, POINTS, tilings, False),
     "time": mixed_staging.time}[sys.argv[1]](*sys.argv[2:])
