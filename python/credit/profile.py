"""Runs one benchmark point's kernel a few times, for a profiler (ncu) to
look at: CREDIT's at a cluster size (0: the compiler's choice), or a
hand-written peer's (triton_resident, triton_looped, cuda_smem,
cuda_reread).

    python -m credit.profile WORKLOAD DTYPE M N [CLUSTER | PEER]
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
    which = argv[4] if len(argv) == 5 else "0"
    args = bench._inputs(suites.Point(workload, dtype, m, n), torch)
    if which.isdigit():
        fn = bench._credit_fn(workload)
        with credit.cluster_size(int(which)):
            for _ in range(3):
                fn(*args)
    else:
        peers = bench._handwritten_peers()
        if which not in peers or workload not in peers[which]:
            print(f"no peer {which!r} for {workload}; peers: "
                  f"{', '.join(sorted(peers))}", file=sys.stderr)
            return 2
        for _ in range(3):
            peers[which][workload](*args)
    torch.cuda.synchronize()
    print(f"ran {workload} {dtype} {m}x{n} {which} three times")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
