"""CREDIT's default (cluster 0: the cost model's variants) at every point
of the decode, ours and paper grids, for an A/B of two compilers or
profiles on the GPU (ab_default.sh).

    cd python
    CREDIT_OPT=../build/bin/credit-opt python ../benchmarks/experiments/default_library.py OUT

The credit-opt named (and its environment: model_variants.diff's
switches) decides the tilings; with CREDIT_REPRICE=1 each request is
compiled again with ptxas's register counts of the kernels it kept (the
twenty-ninth session's change; its A/B against the same command without
it is ab-default-2026-12-05-run6.json and -run7.json).
"""
import os, sys

from credit import suites
from credit.build import build

if __name__ == "__main__":
    points = (suites.decode_points() + suites.our_points() +
              suites.paper_points())
    build(suites._bench_requests(points, clusters=(0,)), sys.argv[1],
          os.cpu_count() or 2, "bin")
