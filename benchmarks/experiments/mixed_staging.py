"""Experiment of 2026-12-04 (#11, #10): mixed staging (the last row input
in registers, packed, the others copied into shared memory, one sweep)
for two-input rows whose slices fit neither in registers nor in shared
memory alone, such as softmax_logits_bwd bf16 8 x 1M (32 MB of row inputs,
53% of the copy ceiling with shared staging looping two rows per CTA).

    python mixed_staging.py build OUT             # CPU, CREDIT_OPT's compiler
    CREDIT_ARTIFACTS=OUT python mixed_staging.py time RESULT   # GPU

`build` compiles, per point, the one-sweep mixed tilings of 256 to 1024
threads and up to 64 elements per thread (the illegal ones are left out)
and, at every point of the three benchmark grids where the model takes a
mixed tiling, the model's fastest predicted other tiling (what it chose
before); it writes OUT/sweep.json. `time` checks the default (before and
after the others) and each tiling against float64 and times them with the
benchmark's CUDA graphs.
"""
import json
import os
import pathlib
import sys

POINTS = [("softmax_logits_bwd", "bf16", 8, 1 << 20),
          ("softmax_logits_bwd", "bf16", 4, 1 << 20),
          ("softmax_logits_bwd", "bf16", 32, 262144),
          ("softmax_logits_bwd", "bf16", 64, 262144),
          ("softmax_logits_bwd", "bf16", 512, 131072),
          ("softmax_logits_bwd", "f32", 8, 1 << 20),
          ("layernorm_bwd", "bf16", 8, 1 << 20),
          ("rmsnorm_bwd", "bf16", 8, 1 << 20),
          ("layernorm_bwd", "bf16", 64, 262144)]


def tilings(n):
    out = []
    for cluster in (1, 2, 4, 8):
        for splits in (1, 2, 4, 8, 16, 32, 64):
            for threads in (256, 512, 1024):
                part = -(-n // (cluster * splits))
                elems = -(-part // threads)
                elems = -(-elems // 8) * 8
                if elems > 64 or threads * elems * (cluster * splits - 1) >= n:
                    continue
                out.append(f"#credit.tiling<cluster = {cluster}, threads = "
                           f"{threads}, vector = VEC, elems = {elems}, "
                           f"staging = mixed, splits = {splits}>")
    return out


def grid_points():
    """(workload, dtype, m, n, the model's best other tiling) at the grid
    points where the model's choice is a mixed tiling."""
    from credit import bench, costmodel
    points = sorted({(p.workload, p.dtype, p.m, p.n)
                     for g in ("ours", "decode", "paper")
                     for p in bench.GRIDS[g]()})
    predicted = costmodel.predict([(w, d, n, m) for w, d, m, n in points])
    out = []
    for (w, d, m, n), p in zip(points, predicted):
        ops = (w, d, n)
        choice = costmodel.variant_for(costmodel.variants([ops])[0], m)
        if "mixed" not in choice:
            continue
        others = {t: us for t, us in p["candidates"].items()
                  if "mixed" not in t}
        out.append((w, d, m, n, min(others, key=others.get)))
    return out


def build(out, points=POINTS, sweep=None, versus_grid=True):
    """Compiles `sweep(n)`'s tilings (VEC: the dtype's 16-byte vector) and
    the default at each of `points`, and with `versus_grid` the grid
    points' previous choices; writes OUT/sweep.json."""
    from credit.build import build as build_requests
    from credit.compiler import Request
    from credit.workloads import WORKLOADS
    sweep = sweep or tilings
    chosen, requests = {}, []
    for w, d, m, n, other in grid_points() if versus_grid else []:
        requests += [Request(w, d, n, 0, WORKLOADS[w].eps, tiling=other),
                     Request(w, d, n, 0, WORKLOADS[w].eps)]
        chosen[f"{w}/{d}/{m}/{n}"] = [other]
    for w, d, m, n in points:
        vec = 8 if d == "bf16" else 4
        ts = [t.replace("VEC", str(vec)) for t in sweep(n)]
        reqs = [Request(w, d, n, 0, WORKLOADS[w].eps, tiling=t) for t in ts]
        reqs.append(Request(w, d, n, 0, WORKLOADS[w].eps))
        requests += reqs
        chosen[f"{w}/{d}/{m}/{n}"] = chosen.get(f"{w}/{d}/{m}/{n}", []) + ts
    build_requests(list(dict.fromkeys(requests)), out, os.cpu_count() or 2,
                   "bin")
    # Only the tilings that compiled (the others are illegal on sm_90).
    built = {json.loads(p.read_text())["request"]["tiling"]
             for p in pathlib.Path(out).glob("*/request.json")}
    chosen = {k: [t for t in v if t in built] for k, v in chosen.items()}
    pathlib.Path(out, "sweep.json").write_text(json.dumps(chosen, indent=1))
    print({k: len(v) for k, v in chosen.items()})


def time(result):
    import torch
    from credit import bench, suites
    library = os.environ["CREDIT_ARTIFACTS"]
    chosen = json.loads(pathlib.Path(library, "sweep.json").read_text())
    refs = bench._references()
    rows = []
    for key, candidates in chosen.items():
        w, d, m, n = key.split("/")
        m, n = int(m), int(n)
        fn = bench._credit_fn(w)
        torch.manual_seed(m + n)
        args, ref, sets = bench.experiment_inputs(suites.Point(w, d, m, n),
                                                  torch, refs)
        for tiling in [None] + candidates + [None]:
            err, us = bench.check_and_time(torch, fn, tiling, args, ref, sets,
                                           d)
            rows.append({"workload": w, "dtype": d, "m": m, "n": n,
                         "tiling": tiling or "default", "us": us,
                         "error": err})
        mine = [r for r in rows if r["workload"] == w and r["m"] == m and
                r["dtype"] == d and r["n"] == n]
        default = min(mine[0]["us"] or 1e9, mine[-1]["us"] or 1e9)
        ok = [r for r in mine[1:-1] if r["us"]]
        best = min(ok, key=lambda r: r["us"]) if ok else None
        bad = [r for r in mine if not r["us"]]
        print(f"{w} {d} {m}x{n}: default {round(default, 2)} "
              f"us; best other {best and round(best['us'], 2)} "
              f"{best and best['tiling']}; {len(bad)} failed", flush=True)
        del sets, args
        torch.cuda.empty_cache()
    pathlib.Path(result).write_text(json.dumps({"rows": rows}, indent=1))


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                    "python"))
    {"build": build, "time": time}[sys.argv[1]](*sys.argv[2:])
