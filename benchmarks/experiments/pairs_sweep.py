"""Experiment of 2026-12-07 (thirty-seventh session): given tilings at given
points, each at its own M, built by one compiler and timed on the GPU, for
an A/B of two compilers on the same tilings.

    python pairs_sweep.py build PAIRS OUT      # CPU, with $CREDIT_OPT
    python pairs_sweep.py time PAIRS OUT RESULT   # GPU

PAIRS is a JSON list of {"workload", "dtype", "m", "n", "tilings": [...]}
(extra keys are kept for the reader). `time` checks each tiling against
float64 on fresh inputs and times it with the benchmark's CUDA-graph timing
(credit.bench.check_and_time), saving RESULT after every point.

sweeps/masked-chunks-2026-12-07.json: the 24 points of the cost model's
evaluation (costmodel-raw-2026-12-05-run1.json) whose candidates with at
least six chunks that may lie past the row's end measured furthest above
the model (up to 2.04x), with those two candidates, the model's choice and
the measured best; "old_us" are the H200 times of that evaluation.
"""
import json, os, pathlib, sys


def build(pairs, out):
    from credit.build import build as build_requests
    from credit.compiler import Request
    from credit.workloads import WORKLOADS
    points = json.loads(pathlib.Path(pairs).read_text())
    requests = [Request(p["workload"], p["dtype"], p["n"], 0,
                        WORKLOADS[p["workload"]].eps, tiling=t)
                for p in points for t in p["tilings"]]
    build_requests(list(dict.fromkeys(requests)), out, os.cpu_count() or 2,
                   "bin")


def time(pairs, out, result):
    import torch
    from credit import bench, suites
    os.environ["CREDIT_ARTIFACTS"] = os.path.abspath(out)
    refs = bench._references()
    rows = []
    for p in json.loads(pathlib.Path(pairs).read_text()):
        w, d, m, n = p["workload"], p["dtype"], p["m"], p["n"]
        torch.manual_seed(m + n)
        args, ref, sets = bench.experiment_inputs(suites.Point(w, d, m, n),
                                                  torch, refs)
        fn = bench._credit_fn(w)
        for t in p["tilings"]:
            err, us = bench.check_and_time(torch, fn, t, args, ref, sets, d)
            rows.append({"workload": w, "dtype": d, "m": m, "n": n,
                         "tiling": t, "us": us, "error": err})
        del args, sets
        torch.cuda.empty_cache()
        pathlib.Path(result).write_text(json.dumps(
            {"device": torch.cuda.get_device_name(), "rows": rows}, indent=1))


if __name__ == "__main__":
    {"build": build, "time": time}[sys.argv[1]](*sys.argv[2:])
