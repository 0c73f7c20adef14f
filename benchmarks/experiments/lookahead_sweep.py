"""Experiment of 2026-12-03: split rows with and without lookahead (a CTA
reduces and publishes its next row before it waits for the current row's
exchange between clusters), tiling by tiling.

    python lookahead_sweep.py build OUT          # CPU: the candidates' kernels
    python lookahead_sweep.py time OUT RESULT    # GPU: CUDA-graph times

`build` asks the cost model for the candidates of each point at M = 8 and
M = 32, keeps the 8 fastest predicted split tilings at each, adds each
one's twin (the same tiling with the other lookahead), compiles them into
OUT and writes OUT/sweep.json. `time` checks each tiling against float64
and times it at M = 4, 8, 32 with the benchmark's CUDA-graph timing, and
measures the device-to-device copy ceiling once.
"""
import json, os, pathlib, re, sys

POINTS = ([(w, "bf16", 1048576) for w in
           ("softmax", "rmsnorm", "layernorm", "cross_entropy",
            "l2_normalize", "softmax_logits_bwd")] +
          [(w, "bf16", n) for w in ("softmax", "log_softmax",
                                    "cross_entropy", "rmsnorm")
           for n in (128256, 262144)])
ROWS = (4, 8, 32)


def twin(tiling):
    if ", lookahead = 1" in tiling:
        return tiling.replace(", lookahead = 1", "")
    return tiling[:-1] + ", lookahead = 1>"


def build(out):
    from credit import costmodel
    from credit.build import build as build_requests
    from credit.compiler import Request
    from credit.workloads import WORKLOADS
    chosen, requests = {}, []
    for w, d, n in POINTS:
        keep = []
        for m in (8, 32):
            cands = costmodel.predict([(w, d, n, m)])[0]["candidates"]
            split = [t for t in cands if "splits" in t][:8]
            for t in split:
                for u in (t, twin(t)):
                    if u not in keep and u in cands:
                        keep.append(u)
        chosen[f"{w}/{d}/{n}"] = keep
        requests += [Request(w, d, n, 0, WORKLOADS[w].eps, tiling=t)
                     for t in keep]
    build_requests(list(dict.fromkeys(requests)), out, os.cpu_count() or 2,
                   "bin")
    pathlib.Path(out, "sweep.json").write_text(json.dumps(chosen, indent=1))


def time(out, result):
    import torch
    import triton
    import credit.ops
    from credit import bench, suites
    os.environ["CREDIT_ARTIFACTS"] = os.path.abspath(out)
    chosen = json.loads(pathlib.Path(out, "sweep.json").read_text())
    refs = bench._references()
    copy_gbs = bench.measure_copy(torch, triton)
    rows = []
    for key, tilings in chosen.items():
        w, d, n = key.split("/")
        n = int(n)
        fn = bench._credit_fn(w)
        for m in ROWS:
            torch.manual_seed(m + n)
            args, ref, sets = bench.experiment_inputs(
                suites.Point(w, d, m, n), torch, refs)
            for tiling in tilings:
                with credit.ops.force_tiling(tiling):
                    try:
                        err = bench._error(fn(*args), ref)
                        us = bench.time_graph(torch, fn, sets) * 1e3 \
                            if err < 1e-2 else None
                    except Exception as e:  # recorded
                        err, us = str(e)[:200], None
                rows.append({"workload": w, "dtype": d, "m": m, "n": n,
                             "tiling": tiling, "us": us, "error": err})
            mine = [r for r in rows[-len(tilings):] if r["us"]]
            for ahead in (False, True):
                best = min((r for r in mine
                            if ("lookahead" in r["tiling"]) == ahead),
                           key=lambda r: r["us"], default=None)
                if best:
                    print(f"{w} {m}x{n} lookahead={int(ahead)}: best "
                          f"{best['us']:.1f} us {best['tiling'][15:-1]}",
                          flush=True)
            del sets, args
            torch.cuda.empty_cache()
    pathlib.Path(result).write_text(json.dumps(
        {"copy_gbs": copy_gbs, "rows": rows}))


if __name__ == "__main__":
    {"build": build, "time": time}[sys.argv[1]](*sys.argv[2:])
