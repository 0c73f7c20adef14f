"""Experiment of 2026-12-01: the asynchronous cluster exchange against the
barrier exchange, tiling by tiling.

    python exchange_ab.py build OUT          # CPU: the pairs' kernels
    python exchange_ab.py time OUT RESULT    # GPU: CUDA-graph times

`build` asks the cost model for the candidates of each point and keeps the
three fastest predicted cluster tilings (one row per CTA, no splits), each
with `exchange = async` (the default) and `exchange = barrier`, compiles
them into OUT and writes OUT/pairs.json. `time` checks every kernel against
float64 and times it with the benchmark's CUDA-graph timing; the result
lists both times per pair.
"""
import json, math, os, pathlib, sys

WORKLOADS = ("softmax", "log_softmax", "cross_entropy", "softmax_logits_bwd",
             "rmsnorm", "rmsnorm_bwd", "layernorm", "layernorm_bwd")
SHAPES = ((512, 131072), (64, 262144), (8, 1048576), (4096, 16384))
POINTS = [(w, "bf16", m, n) for w in WORKLOADS for m, n in SHAPES] + \
    [(w, "f32", 4096, 16384) for w in WORKLOADS]
PAIRS_PER_POINT = 3


def barrier_twin(tiling: str) -> str:
    return tiling[:-1] + ", exchange = barrier>"


def build(out):
    from credit import costmodel
    from credit.build import build as build_requests
    from credit.compiler import Request
    from credit.workloads import WORKLOADS as ALL
    pairs, requests = {}, []
    predicted = costmodel.predict([(w, d, n, m) for w, d, m, n in POINTS])
    for (w, d, m, n), result in zip(POINTS, predicted):
        clusters = [t for t in result["candidates"]
                    if costmodel.cluster_of(t) > 1 and "splits" not in t
                    and "rows" not in t][:PAIRS_PER_POINT]
        pairs[f"{w}/{d}/{m}/{n}"] = clusters
        requests += [Request(w, d, n, 0, ALL[w].eps, tiling=t)
                     for tiling in clusters
                     for t in (tiling, barrier_twin(tiling))]
    build_requests(list(dict.fromkeys(requests)), out, os.cpu_count() or 2,
                   "bin")
    pathlib.Path(out, "pairs.json").write_text(json.dumps(pairs, indent=1))


def time(out, result):
    import torch
    from credit import bench, suites
    os.environ["CREDIT_ARTIFACTS"] = os.path.abspath(out)
    pairs = json.loads(pathlib.Path(out, "pairs.json").read_text())
    refs = bench._references()
    rows = []
    for key, tilings in pairs.items():
        w, d, m, n = key.split("/")
        m, n = int(m), int(n)
        fn = bench._credit_fn(w)
        torch.manual_seed(m + n)
        args, ref, sets = bench.experiment_inputs(
            suites.Point(w, d, m, n), torch, refs)
        for tiling in tilings:
            row = {"workload": w, "dtype": d, "m": m, "n": n,
                   "tiling": tiling}
            for protocol, t in (("async", tiling),
                                ("barrier", barrier_twin(tiling))):
                err, us = bench.check_and_time(torch, fn, t, args, ref, sets,
                                               d)
                kind = "failure" if isinstance(err, str) else "error"
                row[f"{protocol}_{kind}"] = err
                if us is not None:
                    row[f"{protocol}_us"] = us
            rows.append(row)
            a, b = row.get("async_us"), row.get("barrier_us")
            print(f"{w} {d} {m}x{n} {tiling}: async "
                  f"{a if a is None else round(a, 1)} us, barrier "
                  f"{b if b is None else round(b, 1)} us"
                  + (f", {b / a:.3f}x" if a and b else ""), flush=True)
        del sets, args
        torch.cuda.empty_cache()
    ratios = [r["barrier_us"] / r["async_us"] for r in rows
              if r.get("async_us") and r.get("barrier_us")]
    summary = {"pairs": len(rows), "timed": len(ratios),
               "geomean_barrier_over_async":
                   math.exp(sum(map(math.log, ratios)) / len(ratios))
                   if ratios else None,
               "min": min(ratios, default=None),
               "max": max(ratios, default=None)}
    print(json.dumps(summary))
    pathlib.Path(result).write_text(json.dumps(
        {"device": torch.cuda.get_device_name(), "torch": torch.__version__,
         "summary": summary, "rows": rows}, indent=1))


if __name__ == "__main__":
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] /
                           "python"))
    {"build": build, "time": time}[sys.argv[1]](*sys.argv[2:])
