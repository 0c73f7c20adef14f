"""Experiment of 2026-12-01: rows split over clusters, measured tiling by
tiling, to calibrate the cost model's split-row terms.

    python split_sweep.py build OUT [WORKLOAD:N ...]   # CPU: the kernels
    python split_sweep.py time OUT RESULT              # GPU: CUDA-graph times

`build` asks the cost model for every candidate of each point and keeps
the SPLIT (default 12) fastest predicted split tilings and the PLAIN
(default 6) fastest without splits at M = 1, 4, 8 and 32 (runs 1 and 2
of 2026-12-04 selected at fewer M), compiles them into OUT and
writes OUT/sweep.json. `time` checks each tiling against float64 and
times it at M = 1, 4, 8, 32 (ROWS=comma-separated row counts for others) with the benchmark's CUDA-graph timing, then
the compiler's own choice (tiling "default") and, where quack-kernels is
installed and has the workload, Quack (tiling "quack"), on the same inputs
in the same process. AFTER_FOREIGN=1 times each call after a foreign
kernel and subtracts that kernel's time, as `credit.bench --after-foreign`
(2026-12-06, thirty-fifth session).

sweeps/under-quack-2026-12-06.json is the sweep of the decode points under
Quack on an H100 with each call after a foreign kernel (RESULTS.md,
2026-12-06, thirty-fifth session) and of softmax 64 x 262144, timed with
Quack on an H100 on 2026-12-07 (split-sweep-2026-12-07-run1.json; RESULTS.md,
thirty-sixth session):

    SWEEP=../benchmarks/experiments/sweeps/under-quack-2026-12-06.json \
      python ../benchmarks/experiments/split_sweep.py build ../artifacts/sw
    # GPU, carrying artifacts/sw (11 MB) and, for Quack in the same
    # process, the wheels and install of scripts/quack_site.sh:
    source scripts/device_env.sh sw && cd python && AFTER_FOREIGN=1 \
      ROWS=4,8,32,64 python ../benchmarks/experiments/split_sweep.py time \
      ../artifacts/sw $OUT/sweep-af.json

sweeps/stack-2026-12-07.json (thirty-sixth session; timed on an H100 in
the thirty-seventh at M = 4, 7, 8, 9, 16, pad-probe-2026-12-07-run1.json:
the 16-CTA tilings jump from 7 to 8 rows) probes clusters stacked in a
GPC: 16-CTA tilings against 8-CTA and split ones at rmsnorm bf16 N =
128256, 151936, softmax bf16 262144 and the f32 rmsnorm 57520 whose c8
t256 e32 and t128 e60 measured 1.8x slower than c8 t512 e16 (COSTMODEL.md,
2026-12-07). Time it at ROWS=4,6,7,8,9,10,12,14,15,16: a 16-CTA tiling
that jumps from M = 7 to 8 (where 8 clusters of 16 no longer fit in the
GPCs at one CTA per SM) confirms the stacking.

The N = 1048576 decode sweep (forty-first session, an H100 after a
foreign kernel, split-sweep-2026-12-07-run2.json; variant_scan.sh scores
range settings on it):

    python ../benchmarks/experiments/split_sweep.py build ../artifacts/sw1m \
      softmax:1048576 log_softmax:1048576 cross_entropy:1048576 rmsnorm:1048576
    # GPU, carrying artifacts/sw1m (11 MB), 45 + 73 s:
    source scripts/device_env.sh sw1m && cd python && AFTER_FOREIGN=1 \
      ROWS=32,8,4,1 python ../benchmarks/experiments/split_sweep.py time \
      ../artifacts/sw1m $OUT/sweep1m.json      # then ROWS=2,16,24,64
"""
import json, os, pathlib, sys

POINTS = [(w, "bf16", n) for w in ("softmax", "rmsnorm", "cross_entropy")
          for n in (128256, 262144, 1048576)]
ROWS = tuple(int(m) for m in os.environ.get("ROWS", "1,4,8,32").split(","))


def build(out, *points):
    """points: WORKLOAD:N (bf16) instead of POINTS (2026-12-04: the decode
    points at parity with Quack). SWEEP=path/sweep.json builds that
    library's tilings instead (another compiler's kernels of the same
    tilings, for an A/B)."""
    from credit import costmodel
    from credit.build import build as build_requests
    from credit.compiler import Request
    from credit.workloads import WORKLOADS
    chosen, requests = {}, []
    chosen_points = [(p.split(":")[0], "bf16", int(p.split(":")[1]))
                     for p in points] or POINTS
    given = (json.loads(pathlib.Path(os.environ["SWEEP"]).read_text())
             if os.environ.get("SWEEP") else None)
    if given:
        chosen_points = [(k.split("/")[0], k.split("/")[1],
                          int(k.split("/")[2])) for k in given]
    for w, d, n in chosen_points:
        keep = list(given[f"{w}/{d}/{n}"]) if given else []
        for m in ROWS if not given else ():
            cands = costmodel.predict([(w, d, n, m)])[0]["candidates"]
            split = [t for t in cands if "splits" in t][
                :int(os.environ.get("SPLIT", "12"))]
            plain = [t for t in cands if "splits" not in t][
                :int(os.environ.get("PLAIN", "6"))]
            keep += [t for t in split + plain if t not in keep]
        chosen[f"{w}/{d}/{n}"] = keep
        requests += [Request(w, d, n, 0, WORKLOADS[w].eps, tiling=t)
                     for t in keep] + [Request(w, d, n, 0, WORKLOADS[w].eps)]
    build_requests(list(dict.fromkeys(requests)), out, os.cpu_count() or 2, "bin")
    pathlib.Path(out, "sweep.json").write_text(json.dumps(chosen, indent=1))


def time(out, result):
    import torch
    from credit import bench, suites
    os.environ["CREDIT_ARTIFACTS"] = os.path.abspath(out)
    chosen = json.loads(pathlib.Path(out, "sweep.json").read_text())
    refs = bench._references()
    quack = bench._quack_peers()
    foreign = (bench.foreign_kernel(torch)
               if os.environ.get("AFTER_FOREIGN") == "1" else None)
    foreign_us = (1e3 * bench.time_graph(torch, foreign, [()])
                  if foreign else 0.0)
    rows = []

    def save():
        pathlib.Path(result).write_text(json.dumps(
            {"device": torch.cuda.get_device_name(),
             "after_foreign": bool(foreign), "foreign_us": foreign_us,
             "rows": rows}, indent=1))

    for key, tilings in chosen.items():
        w, d, n = key.split("/")
        n = int(n)
        fn = bench._credit_fn(w)
        for m in ROWS:
            torch.manual_seed(m + n)
            args, ref, sets = bench.experiment_inputs(
                suites.Point(w, d, m, n), torch, refs)
            timed = [(t, fn, t) for t in tilings] + [("default", fn, None)]
            if w in quack:
                timed.append(("quack", quack[w], None))
            for label, call, tiling in timed:
                err, us = bench.check_and_time(torch, call, tiling, args, ref,
                                               sets, d, before=foreign)
                us = us - foreign_us if us is not None else None
                rows.append({"workload": w, "dtype": d, "m": m, "n": n,
                             "tiling": label, "us": us, "error": err})
            best = min((r for r in rows[-len(timed):]
                        if r["us"] and r["tiling"] in tilings),
                       key=lambda r: r["us"])
            default = rows[-len(timed):][len(tilings)]["us"]
            print(f"{w} {m}x{n}: best {best['us']:.2f} us {best['tiling']}"
                  f", default {default or float('nan'):.2f} us", flush=True)
            del sets, args
            torch.cuda.empty_cache()
            save()
    save()


if __name__ == "__main__":
    {"build": build, "time": time}[sys.argv[1]](*sys.argv[2:])
