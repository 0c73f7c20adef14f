"""Experiment of 2026-12-03: shared staging of only some row inputs
(reread_inputs: the others are read again from global memory), tiling by
tiling, on the workloads with several row inputs.

    python partial_staging_sweep.py build OUT        # CPU: the kernels
    python partial_staging_sweep.py time OUT RESULT  # GPU: CUDA-graph times

`build` asks the cost model for the candidates of each point, keeps the 8
fastest predicted tilings, adds each shared one's twins (all inputs staged,
the last one left out), compiles them into OUT and writes OUT/sweep.json.
`time` checks each tiling against float64 and times it with the
benchmark's CUDA-graph timing, and measures the copy ceiling once.
"""
import json, os, pathlib, re, sys

POINTS = ([("softmax_logits_bwd", "bf16", 1048576, m) for m in (4, 8, 32)] +
          [("softmax_logits_bwd", "bf16", 262144, 64),
           ("softmax_logits_bwd", "bf16", 131072, 512)] +
          [(w, "f32", n, 2048 if w == "layernorm_bwd" else 4096)
           for w in ("layernorm_bwd", "rmsnorm_bwd", "softmax_logits_bwd",
                     "pearson_bwd", "weighted_var_bwd", "lars_momentum")
           for n in (16384, 65536)])


def twins(tiling):
    """The tiling with every input staged, and with the last left out."""
    if "staging = shared" not in tiling:
        return [tiling]
    base = tiling.replace(", reread_inputs = 1", "").replace(
        ", reread_inputs = 2", "").replace(", reread_inputs = 3", "")
    return [base, base[:-1] + ", reread_inputs = 1>"]


def build(out):
    from credit import costmodel
    from credit.build import build as build_requests
    from credit.compiler import Request
    from credit.workloads import WORKLOADS
    chosen, requests = {}, []
    for w, d, n, m in POINTS:
        cands = costmodel.predict([(w, d, n, m)])[0]["candidates"]
        keep = []
        for t in list(cands)[:8]:
            for u in twins(t):
                if u not in keep and u in cands:
                    keep.append(u)
        chosen[f"{w}/{d}/{n}/{m}"] = keep
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
        w, d, n, m = key.split("/")
        n, m = int(n), int(m)
        fn = bench._credit_fn(w)
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
        for partial in (False, True):
            best = min((r for r in mine
                        if ("reread_inputs" in r["tiling"]) == partial),
                       key=lambda r: r["us"], default=None)
            if best:
                print(f"{w} {m}x{n} reread_inputs={int(partial)}: best "
                      f"{best['us']:.1f} us {best['tiling'][15:-1]}",
                      flush=True)
        del sets, args
        torch.cuda.empty_cache()
    pathlib.Path(result).write_text(json.dumps(
        {"copy_gbs": copy_gbs, "rows": rows}))


if __name__ == "__main__":
    {"build": build, "time": time}[sys.argv[1]](*sys.argv[2:])
