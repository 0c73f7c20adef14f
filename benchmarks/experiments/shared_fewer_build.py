"""Experiment of 2026-12-03 (prepared in the eleventh session, measured in
the twelfth: costmodel-raw-2026-12-03-run8.json, COSTMODEL.md runs 8-10;
that day's files are stored as .json.xz since 2026-12-05, `xz -dk`
restores the run-7 file this reads).
Quack's shape for long rows (clusters of 16 CTAs of 256 threads, the slice
in shared memory, 80 registers, three CTAs per SM; RESULTS.md, fifth
session, the ncu look at softmax bf16 64 x 262144) was not among the cost
model's candidates, which offered shared staging on fewer than the most
threads only where the slice took two or more sweeps of 1024 threads (it
now offers the 16-bit form). This builds, for the 12 long-row points of
our grid (N = 131072 and 262144, softmax, rmsnorm, layernorm,
cross_entropy, l2_normalize), the 8 fastest candidates of run 7 and
shared-staged sweeps of 16 elements on clusters of 4-16 CTAs of 128-512
threads, into a library the cost-model measurement times:

    python3 benchmarks/experiments/shared_fewer_build.py artifacts/fewer  # CPU
    python3 -m credit.costmodel measure --library artifacts/fewer \\
        --out $OUT/fewer.json --budget 400                                   # GPU

(run the second from python/ with PYTHONPATH set as scripts/device_env.sh
does). On the CPU the new kernels need 40-59 registers (softmax bf16
262144 c16 t256: 48, 32 KiB of shared memory, no spills)."""
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
from credit.build import build  # noqa: E402
from credit.compiler import Request  # noqa: E402
from credit.workloads import WORKLOADS  # noqa: E402

WORKLOAD_SET = ("softmax", "rmsnorm", "cross_entropy", "layernorm",
                "l2_normalize")


def main(out: str) -> int:
    raw = json.loads((ROOT / "benchmarks/costmodel-raw-2026-12-03-run7.json")
                     .read_text())
    candidates, requests = {}, []
    for point in raw["points"]:
        if (point["n"] not in (131072, 262144) or point["source"] != "ours"
                or point["workload"] not in WORKLOAD_SET):
            continue
        fastest = sorted(point["candidates"],
                         key=lambda c: c.get("measured_us", 1e9))[:8]
        tilings = [c["tiling"] for c in fastest]
        vector = 8 if point["dtype"] != "f32" else 4
        for cluster in (4, 8, 16):
            for threads in (128, 256, 512):
                if point["n"] // cluster // (threads * 16) < 2:
                    continue
                tiling = (f"#credit.tiling<cluster = {cluster}, threads = "
                          f"{threads}, vector = {vector}, elems = 16, "
                          f"staging = shared>")
                if tiling not in tilings:
                    tilings.append(tiling)
        key = f"{point['workload']}/{point['dtype']}/{point['n']}"
        candidates[key] = tilings
        requests += [Request(point["workload"], point["dtype"], point["n"], 0,
                             WORKLOADS[point["workload"]].eps, 64, t)
                     for t in tilings]
    print(f"{len(requests)} kernels")
    status = build(requests, out, 2, "bin")
    pathlib.Path(out, "candidates.json").write_text(
        json.dumps(candidates, indent=1) + "\n")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
