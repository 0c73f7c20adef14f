"""Experiment of 2026-12-04 (#11): async staging of split rows at M = 8
and 4, N = 1M, against the default.

    python async_sweep.py build OUT           # CPU
    CREDIT_ARTIFACTS=OUT python async_sweep.py time RESULT   # GPU

`build` and `time` are mixed_staging.py's, with these points and tilings.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
import mixed_staging  # noqa: E402

POINTS = [("cross_entropy", "bf16", 8, 1 << 20),
          ("cross_entropy", "bf16", 4, 1 << 20),
          ("softmax", "bf16", 8, 1 << 20),
          ("layernorm", "bf16", 8, 1 << 20)]


def tilings(n):
    out = []
    for cluster in (1, 2):
        for splits in (8, 16, 32, 64):
            for threads in (256, 512, 1024):
                for elems in (8, 16, 32):
                    part = -(-n // (cluster * splits))
                    if part % (threads * elems) or \
                            part // (threads * elems) > 8:
                        continue
                    out.append(f"#credit.tiling<cluster = {cluster}, "
                               f"threads = {threads}, vector = VEC, elems = "
                               f"{elems}, staging = async, splits = {splits}>")
    return out


if __name__ == "__main__":
    {"build": lambda out: mixed_staging.build(out, POINTS, tilings, False),
     "time": mixed_staging.time}[sys.argv[1]](*sys.argv[2:])
