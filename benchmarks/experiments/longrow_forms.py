"""Experiment of 2026-12-04 (#10): where CREDIT's best tiling of a long
bf16 row at M >= 64 is 10-15% slower than Quack (softmax, cross_entropy
512 x 131072), does a form that puts a CTA's whole slice in flight at once
help: asynchronous staging (cp.async of the whole slice when the row
begins) or registers (Quack's shape: 32-64 elements per thread), beside
the shared staging the model chooses?

    python longrow_forms.py build OUT          # CPU
    python longrow_forms.py time OUT RESULT    # GPU

`build` compiles, for each point, clusters 4, 8, 16 x threads 128..1024 x
staging shared / async / registers (registers where the slice is at most
64 elements per thread) into OUT and writes OUT/sweep.json; `time` checks
each against float64 and times it with the benchmark's CUDA graphs.
"""
import json, os, pathlib, sys

POINTS = [(w, "bf16", m, n) for w in ("softmax", "cross_entropy", "rmsnorm")
          for m, n in ((512, 131072), (64, 262144))]


def tilings(n):
    out = []
    for cluster in (4, 8, 16):
        per = n // cluster
        for threads in (128, 256, 512, 1024):
            for staging in ("shared", "async"):
                if per % (threads * 16) == 0 and per // (threads * 16) >= 2:
                    out.append(f"#credit.tiling<cluster = {cluster}, threads = "
                               f"{threads}, vector = 8, elems = 16, staging = "
                               f"{staging}>")
            elems = per // threads
            if elems in (16, 32, 64):
                out.append(f"#credit.tiling<cluster = {cluster}, threads = "
                           f"{threads}, vector = 8, elems = {elems}>")
    return out


def build(out):
    from credit.build import build as build_requests
    from credit.compiler import Request
    from credit.workloads import WORKLOADS
    chosen, requests = {}, []
    for w, d, m, n in POINTS:
        chosen[f"{w}/{d}/{m}/{n}"] = tilings(n)
        requests += [Request(w, d, n, 0, WORKLOADS[w].eps, tiling=t)
                     for t in tilings(n)]
        requests.append(Request(w, d, n, 0, WORKLOADS[w].eps))  # the default
    build_requests(list(dict.fromkeys(requests)), out, os.cpu_count() or 2, "bin")
    pathlib.Path(out, "sweep.json").write_text(json.dumps(chosen, indent=1))


def time(out, result):
    import torch
    from credit import bench, suites
    os.environ["CREDIT_ARTIFACTS"] = os.path.abspath(out)
    chosen = json.loads(pathlib.Path(out, "sweep.json").read_text())
    refs = bench._references()
    rows = []
    for key, candidates in chosen.items():
        w, d, m, n = key.split("/")
        m, n = int(m), int(n)
        fn = bench._credit_fn(w)
        torch.manual_seed(m + n)
        args, ref, sets = bench.experiment_inputs(suites.Point(w, d, m, n),
                                                  torch, refs)
        # The default first and last: the card warms up over a point.
        for tiling in [None] + candidates + [None]:
            err, us = bench.check_and_time(torch, fn, tiling, args, ref, sets,
                                           d)
            rows.append({"workload": w, "dtype": d, "m": m, "n": n,
                         "tiling": tiling or "default", "us": us, "error": err})
        mine = rows[-len(candidates) - 2:]
        best = min((r for r in mine if r["us"]), key=lambda r: r["us"])
        print(f"{w} {m}x{n}: default {mine[0]['us']:.1f} / {mine[-1]['us']:.1f}"
              f" us (first / last), best {best['us']:.1f} us {best['tiling']}",
              flush=True)
        for staging in ("shared", "async", "registers"):
            some = [r for r in mine[1:-1] if r["us"] and
                    (staging in r["tiling"] or (staging == "registers" and
                                                "staging" not in r["tiling"]))]
            if some:
                top = min(some, key=lambda r: r["us"])
                print(f"    {staging:9} {top['us']:.1f} us {top['tiling']}",
                      flush=True)
        del sets, args
        torch.cuda.empty_cache()
    pathlib.Path(result).write_text(json.dumps({"rows": rows}, indent=1))


if __name__ == "__main__":
    {"build": build, "time": time}[sys.argv[1]](*sys.argv[2:])
