"""Runs one benchmark point's CREDIT kernel a few times, for a profiler
(ncu) to look at.

    python -m credit.profile WORKLOAD DTYPE M N [CLUSTER]
"""

from __future__ import annotations

import sys


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) not in (4, 5):
        print(__doc__)
        return 2
    import torch

    import credit
    from . import bench, suites

    workload, dtype, m, n = argv[0], argv[1], int(argv[2]), int(argv[3])
    cluster = int(argv[4]) if len(argv) == 5 else 0
    args = bench._inputs(suites.Point(workload, dtype, m, n), torch)
    fn = bench._credit_fn(workload)
    with credit.cluster_size(cluster):
        for _ in range(3):
            fn(*args)
    torch.cuda.synchronize()
    print(f"ran {workload} {dtype} {m}x{n} cluster {cluster} three times")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
