"""Experiment of 2026-12-04 (#11): with the epilogue's broadcast loads a
sweep ahead (da9442f), would loading a reread row input a sweep ahead too
make reread staging the fastest form where both row inputs do not fit in
shared memory (softmax_logits_bwd bf16 8 x 1M, 53% of the copy ceiling)?

    python epilogue_rereads.py build OUT CREDIT_OPT...   # CPU, one library
                                                         # per compiler
    CREDIT_ARTIFACTS=OUT/i python epilogue_rereads.py time RESULT  # GPU

`build` compiles every split tiling below with each compiler into
OUT/<i> (i: the compiler's position) and writes OUT/sweep.json; `time`
checks each against float64 and times it with the benchmark's CUDA graphs
(one process per library, alternating).
"""
import json
import os
import pathlib
import sys

POINTS = [("softmax_logits_bwd", "bf16", 8, 1 << 20),
          ("cross_entropy", "bf16", 8, 1 << 20),
          ("softmax_logits_bwd", "bf16", 32, 262144)]


def tilings(workload, n):
    elems = 8 if workload == "softmax_logits_bwd" else 16
    out = []
    for cluster, splits in ((1, 16), (1, 32), (1, 64), (2, 16), (2, 32)):
        for threads in (512, 1024):
            for staging in ("shared", "reread"):
                part = n // (cluster * splits)
                if part % (threads * elems) or part < threads * elems:
                    continue
                out.append(f"#credit.tiling<cluster = {cluster}, threads = "
                           f"{threads}, vector = 8, elems = {elems}, "
                           f"staging = {staging}, splits = {splits}>")
    return out


def build(out, *compilers):
    from credit.build import build as build_requests
    from credit.compiler import Request
    from credit.workloads import WORKLOADS
    chosen, requests = {}, []
    for w, d, m, n in POINTS:
        chosen[f"{w}/{d}/{m}/{n}"] = tilings(w, n)
        requests += [Request(w, d, n, 0, WORKLOADS[w].eps, tiling=t)
                     for t in tilings(w, n)]
    for i, compiler in enumerate(compilers):
        os.environ["CREDIT_OPT"] = compiler
        build_requests(list(dict.fromkeys(requests)), f"{out}/{i}",
                       os.cpu_count() or 2, "bin")
        pathlib.Path(out, str(i), "sweep.json").write_text(
            json.dumps(chosen, indent=1))


def time(result):
    """Times every tiling with the library CREDIT_ARTIFACTS names (one
    process per library: the libraries' kernels have the same names)."""
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
        for tiling in candidates:
            err, us = bench.check_and_time(torch, fn, tiling, args, ref, sets,
                                           d)
            rows.append({"workload": w, "dtype": d, "m": m, "n": n,
                         "library": library, "tiling": tiling, "us": us,
                         "error": err})
        mine = [r for r in rows if r["workload"] == w and r["m"] == m and
                r["us"]]
        best = min(mine, key=lambda r: r["us"])
        print(f"{w} {m}x{n}: best {best['us']:.2f} us {best['tiling']}",
              flush=True)
        del sets, args
        torch.cuda.empty_cache()
    pathlib.Path(result).write_text(json.dumps({"rows": rows}, indent=1))


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                    "python"))
    {"build": build, "time": time}[sys.argv[1]](*sys.argv[2:])
